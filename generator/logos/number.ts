// Fixed number formatting for SVG output, so two renders are byte-identical
// and no "-0", "NaN" or exponent notation ever reaches a file.

/** Rounds to `decimals` places and prints the shortest form ("-0" becomes "0"). */
export function fmt(x: number, decimals: number): string {
  if (!Number.isFinite(x)) throw new Error(`cannot format ${x} as an SVG number`);
  const scale = 10 ** decimals;
  const r = Math.round(x * scale) / scale;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

/**
 * The number fmt prints, without the text: Number(fmt(x, decimals)), since a number's shortest text
 * reads back as that number and "-0" is printed "0". 20,000 logos are drawn for the shipped site (the
 * files and the matrix pages' reverse complements), each stack edge rounded and read back.
 */
export function rounded(x: number, decimals: number): number {
  if (!Number.isFinite(x)) throw new Error(`cannot format ${x} as an SVG number`);
  const scale = 10 ** decimals;
  const r = Math.round(x * scale) / scale;
  return r === 0 ? 0 : r;
}

/** Like fmt, with the leading zero dropped (".5", "-.25"), for path data. */
export function fmtShort(x: number, decimals: number): string {
  return fmt(x, decimals).replace(/^(-?)0\./, '$1.');
}

export type PathCommand =
  | { type: 'M'; x: number; y: number }
  | { type: 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };

/**
 * Serialises absolute path commands compactly after rounding to `decimals`:
 * zero-length lines and the line closing a contour (Z does that) are dropped,
 * straight lines become H/V where possible, each command is written absolute
 * or relative, whichever is shorter (relative offsets are taken between
 * rounded points, so nothing drifts), a repeated command letter is omitted,
 * and numbers are separated only where the grammar needs it ("M.5.25l1-.5").
 */
export function pathData(commands: readonly PathCommand[], decimals: number): string {
  const r = (v: number): number => Number(fmt(v, decimals));

  let out = '';
  let prevLetter = '';
  let prevWasNumber = false;
  let prevHasDot = false;
  const numbers = (nums: number[], startsAfterNumber: boolean, startsAfterDot: boolean): string => {
    let s = '';
    let wasNumber = startsAfterNumber;
    let hasDot = startsAfterDot;
    for (const v of nums) {
      const t = fmtShort(v, decimals);
      const needsSep = wasNumber && !(t.startsWith('-') || (t.startsWith('.') && hasDot));
      s += (needsSep ? ' ' : '') + t;
      wasNumber = true;
      hasDot = t.includes('.');
    }
    return s;
  };
  // Writes the command absolute or relative, whichever is shorter.
  const emit = (letter: string, abs: number[], rel: number[]): void => {
    const candidates = [
      { letter, nums: abs },
      { letter: letter.toLowerCase(), nums: rel },
    ].map(({ letter: l, nums }) => {
      // M is never implicit: a repeated M pair would be read as a line.
      const implicit = l === prevLetter && l.toUpperCase() !== 'M';
      const text = implicit ? numbers(nums, prevWasNumber, prevHasDot) : l + numbers(nums, false, false);
      return { l, text, nums };
    });
    const best = candidates[1].text.length < candidates[0].text.length ? candidates[1] : candidates[0];
    out += best.text;
    prevLetter = best.l;
    const last = best.nums.length ? fmtShort(best.nums[best.nums.length - 1], decimals) : '';
    prevWasNumber = best.nums.length > 0;
    prevHasDot = last.includes('.');
  };

  let cx = 0, cy = 0, sx = 0, sy = 0;
  const d = (a: number, b: number): number => r(a - b);
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i];
    if (c.type === 'Z') {
      out += 'z';
      prevLetter = 'z';
      prevWasNumber = false;
      cx = sx; cy = sy;
      continue;
    }
    const x = r(c.x), y = r(c.y);
    if (c.type === 'M') {
      emit('M', [x, y], [d(x, cx), d(y, cy)]);
      sx = cx = x; sy = cy = y;
      continue;
    }
    if (c.type === 'L') {
      const next = commands[i + 1];
      const closesContour = x === sx && y === sy && (next === undefined || next.type === 'Z');
      if ((x === cx && y === cy) || closesContour) continue;
      if (y === cy) emit('H', [x], [d(x, cx)]);
      else if (x === cx) emit('V', [y], [d(y, cy)]);
      else emit('L', [x, y], [d(x, cx), d(y, cy)]);
    } else if (c.type === 'Q') {
      const x1 = r(c.x1), y1 = r(c.y1);
      emit('Q', [x1, y1, x, y], [d(x1, cx), d(y1, cy), d(x, cx), d(y, cy)]);
    } else {
      const x1 = r(c.x1), y1 = r(c.y1), x2 = r(c.x2), y2 = r(c.y2);
      emit('C', [x1, y1, x2, y2, x, y], [d(x1, cx), d(y1, cy), d(x2, cx), d(y2, cy), d(x, cx), d(y, cy)]);
    }
    cx = x; cy = y;
  }
  return out;
}
