// Number printing the way JASPAR's Python code prints numbers. In dataset/,
// the lowest folder: the readers check a full-precision count against the
// .jaspar file's "{:6.0f}" of it, and every format prints with it.
//
// JASPAR renders counts with str(float) (TRANSFAC), "{:6.0f}" (jaspar),
// "{:6.2f}" (pfm) and "{:.6f}" (MEME). Python rounds a value that lies exactly
// half-way to the even neighbour (682.5 -> "682", 1/128 -> "0.007812");
// JavaScript's toFixed rounds such ties up. Everything else is the same
// correctly rounded decimal, so only exact ties need care.

/** Python's repr(float): shortest round-trip digits, "4.0" for whole numbers,
 *  exponent form below 1e-4 and from 1e16 on ("1e-05", "1e+16"). */
export function pyRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // Fast path (every count of the site comes through here): between 1e-4 and
  // 1e16 Python prints the same shortest round-trip digits as String() and in
  // the same positional form, with ".0" after a whole number.
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) return Number.isInteger(x) ? `${x}.0` : String(x);
  // toExponential() without an argument gives the shortest digits that round-trip.
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intLen = exp + 1;
  if (digits.length <= intLen) return `${sign}${digits.padEnd(intLen, '0')}.0`;
  return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const ZEROS = Array.from({ length: 23 }, (_, i) => '0'.repeat(i));

/** Python's "%.{decimals}f" (round half to even on the exact binary value). */
export function pyFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return pyRepr(x);
  const abs = Math.abs(x);
  // A whole number (the counts of the jaspar and pfm formats) prints its
  // exact digits (String() is exact up to 2^53) and zero decimals; -0 keeps
  // its sign below.
  if (Number.isInteger(x) && abs <= Number.MAX_SAFE_INTEGER && !Object.is(x, -0)) return decimals === 0 ? String(x) : `${x}.${ZEROS[decimals] ?? '0'.repeat(decimals)}`;
  // Fast path (it prints every count of the site): a double that is an exact
  // tie n + 0.5 at this many decimals gives exactly n + 0.5 when scaled (10^d
  // is exact up to 10^22, n + 0.5 fits 53 bits below 2^52, and IEEE
  // multiplication is correctly rounded), so anything else is no tie and
  // toFixed rounds it as Python does. Possible ties take the exact path.
  if (decimals <= 22 && abs < 2 ** 52 / POW10[decimals]) {
    const scaled = abs * POW10[decimals];
    if (scaled - Math.floor(scaled) !== 0.5) {
      const text = abs.toFixed(decimals);
      return x < 0 || Object.is(x, -0) ? `-${text}` : text;
    }
  }
  return pyFixedExact(x, abs, decimals);
}

/** pyFixed through the exact decimal expansion of the double. */
export function pyFixedExact(x: number, abs: number, decimals: number): string {
  // toFixed(100) is the exact decimal expansion for every double that can be a
  // tie at <= 20 decimals (a tie has at most decimals + 1 fractional digits).
  const exact = abs < 1e21 ? abs.toFixed(100) : '';
  const dot = exact.indexOf('.');
  let text: string;
  if (dot >= 0 && exact[dot + 1 + decimals] === '5' && /^0*$/.test(exact.slice(dot + 2 + decimals))) {
    const kept = exact.slice(0, dot + 1 + decimals).replace(/\.$/, '');
    const lastDigit = Number(kept[kept.length - 1]);
    text = lastDigit % 2 === 0 ? kept : roundUpLastDigit(kept);
  } else if (abs >= 1e21) {
    // toFixed switches to exponent form from 1e21; Python prints every digit.
    // Such a double is a whole number, so BigInt holds it exactly.
    text = BigInt(abs).toString() + (decimals > 0 ? `.${'0'.repeat(decimals)}` : '');
  } else {
    text = abs.toFixed(decimals);
  }
  const negative = x < 0 || Object.is(x, -0);
  return negative ? `-${text}` : text;
}

/** "%{width}.{decimals}f": pyFixed right-aligned in width characters. */
export function pyFixedWidth(x: number, width: number, decimals: number): string {
  return pyFixed(x, decimals).padStart(width, ' ');
}

function roundUpLastDigit(text: string): string {
  const chars = text.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] === '.') continue;
    if (chars[i] === '9') {
      chars[i] = '0';
      continue;
    }
    chars[i] = String(Number(chars[i]) + 1);
    return chars.join('');
  }
  return `1${chars.join('')}`;
}

/**
 * n.toLocaleString('en') ("1,939") for a whole number, without ICU: the first toLocaleString of a process
 * loads its locale data, 5 ms of the main thread's CPU, which a one-count rebuild paid for the release notes'
 * counts (dataset/official/merge.ts). Other numbers go to toLocaleString.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en');
  const digits = String(Math.abs(n));
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = text.length; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${text}` : text;
}
