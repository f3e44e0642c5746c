// Test helpers: reading shared JASPAR data, and measuring letter stacks in
// our SVG and in JASPAR's own (Cairo) SVG.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pfm } from '../../generator/logos/math.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DATA_DIR = process.env.JASPAR_DATA ?? path.resolve(repo, 'data/jaspar-2024');
export const GOLDEN_DIR = path.resolve(repo, 'test/golden/formats');

/** Counts from `<DATA_DIR>/matrices/<id>.jaspar` (">ID\tNAME", then "A  [ 4 19 … ]" rows). */
export function readJasparPfm(id: string): Pfm {
  const text = readFileSync(path.join(DATA_DIR, 'matrices', `${id}.jaspar`), 'utf8');
  const pfm: Pfm = { A: [], C: [], G: [], T: [] };
  for (const line of text.split(/\r?\n/)) {
    const m = /^([ACGT])\s*\[([^\]]*)\]/.exec(line);
    if (m) pfm[m[1] as keyof Pfm] = m[2].trim().split(/\s+/).map(Number);
  }
  return pfm;
}

/** Full-precision counts from pfm_noninteger.json (MA1972.1 and others). */
export function readNonIntegerPfm(id: string): Pfm {
  const all = JSON.parse(readFileSync(path.join(DATA_DIR, 'pfm_noninteger.json'), 'utf8')) as Record<
    string,
    { pfm: Record<keyof Pfm, string[]> }
  >;
  const rows = all[id].pfm;
  return { A: rows.A.map(Number), C: rows.C.map(Number), G: rows.G.map(Number), T: rows.T.map(Number) };
}

export interface PlacedLetter {
  base: string;
  x: number;
  top: number;
  height: number;
}

const USE_RE = /<use href="#([ACGT])" transform="translate\(([-\d.]+) ([-\d.]+)\)scale\(([-\d.]+) ([-\d.]+)\)"\/>/g;

/** Every logo letter our SVG places: glyphs are unit boxes, so ink = translate/scale box. */
export function ourLetters(svg: string): PlacedLetter[] {
  return [...svg.matchAll(USE_RE)].map((m) => ({ base: m[1], x: Number(m[2]), top: Number(m[3]), height: Number(m[5]) }));
}

export interface Stack {
  x: number;
  top: number;
  bottom: number;
  letters: number;
}

function groupByX<T extends { x: number }>(items: T[], merge: (stack: Stack | undefined, item: T) => Stack): Stack[] {
  const stacks = new Map<number, Stack>();
  for (const item of items) stacks.set(item.x, merge(stacks.get(item.x), item));
  return [...stacks.values()].sort((a, b) => a.x - b.x);
}

/** Letter stacks in our SVG, left to right (columns with no letters are absent). */
export function ourStacks(svg: string): Stack[] {
  return groupByX(ourLetters(svg), (s, l) => ({
    x: l.x,
    top: Math.min(s?.top ?? Infinity, l.top),
    bottom: Math.max(s?.bottom ?? -Infinity, l.top + l.height),
    letters: (s?.letters ?? 0) + 1,
  }));
}

/**
 * Letter stacks in JASPAR's SVG (R ggseqlogo drawn by Cairo). Each letter is
 * one `<path style="...fill:rgb(r%,g%,b%)..." d="M x y L x y ... Z">`
 * polygon (only M/L/Z with absolute coordinates) whose first point sits on
 * its column's left edge; black paths are axis text, the white rect is the
 * background. Columns are grouped by that left x.
 */
export function jasparStacks(svg: string): Stack[] {
  const letters: { x: number; top: number; bottom: number }[] = [];
  for (const m of svg.matchAll(/<path style="[^"]*fill:rgb\(([^)]*)\)[^"]*" d="([^"]*)"/g)) {
    if (m[1] === '0%,0%,0%' || m[1] === '100%,100%,100%') continue;
    if (/[^MLZ\d\s.-]/.test(m[2])) throw new Error(`unexpected path command in JASPAR letter: ${m[2].slice(0, 80)}`);
    const nums = (m[2].match(/-?[\d.]+/g) ?? []).map(Number);
    let top = Infinity;
    let bottom = -Infinity;
    for (let i = 1; i < nums.length; i += 2) {
      top = Math.min(top, nums[i]);
      bottom = Math.max(bottom, nums[i]);
    }
    letters.push({ x: Math.round(nums[0] * 1000) / 1000, top, bottom });
  }
  return groupByX(letters, (s, l) => ({
    x: l.x,
    top: Math.min(s?.top ?? Infinity, l.top),
    bottom: Math.max(s?.bottom ?? -Infinity, l.bottom),
    letters: (s?.letters ?? 0) + 1,
  }));
}

/** Stack heights divided by the tallest one. */
export function relativeHeights(stacks: Stack[]): number[] {
  const heights = stacks.map((s) => s.bottom - s.top);
  const max = Math.max(...heights);
  return heights.map((h) => h / max);
}

/**
 * Ink bounding box of SVG path data (M L H V Q C Z, absolute and relative,
 * implicit repeats): on-curve points plus the extrema of Bézier segments.
 */
export function pathInkBox(d: string): { x1: number; y1: number; x2: number; y2: number } {
  const tokens = d.match(/[MLHVQCZmlhvqcz]|-?(?:\d+\.?\d*|\.\d+)/g) ?? [];
  const box = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  const add = (x: number, y: number): void => {
    box.x1 = Math.min(box.x1, x); box.x2 = Math.max(box.x2, x);
    box.y1 = Math.min(box.y1, y); box.y2 = Math.max(box.y2, y);
  };
  // Extrema of one coordinate of a Bézier with control values ps.
  const bezierExtrema = (ps: number[]): number[] => {
    const at = (t: number): number =>
      ps.length === 3
        ? (1 - t) ** 2 * ps[0] + 2 * (1 - t) * t * ps[1] + t * t * ps[2]
        : (1 - t) ** 3 * ps[0] + 3 * (1 - t) ** 2 * t * ps[1] + 3 * (1 - t) * t * t * ps[2] + t ** 3 * ps[3];
    const out: number[] = [];
    for (let i = 1; i < 200; i++) out.push(at(i / 200));
    return out;
  };
  let i = 0;
  let cmd = '';
  let cx = 0, cy = 0, sx = 0, sy = 0;
  const num = (): number => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/[A-Za-z]/.test(tokens[i])) cmd = tokens[i++];
    const rel = cmd === cmd.toLowerCase();
    const ox = rel ? cx : 0, oy = rel ? cy : 0;
    switch (cmd.toUpperCase()) {
      case 'Z': cx = sx; cy = sy; continue;
      case 'M': cx = ox + num(); cy = oy + num(); sx = cx; sy = cy; cmd = rel ? 'l' : 'L'; break;
      case 'L': cx = ox + num(); cy = oy + num(); break;
      case 'H': cx = ox + num(); break;
      case 'V': cy = (rel ? cy : 0) + num(); break;
      case 'Q': {
        const x1 = ox + num(), y1 = oy + num(), x = ox + num(), y = oy + num();
        const xs = bezierExtrema([cx, x1, x]), ys = bezierExtrema([cy, y1, y]);
        xs.forEach((v, k) => add(v, ys[k]));
        cx = x; cy = y;
        break;
      }
      case 'C': {
        const x1 = ox + num(), y1 = oy + num(), x2 = ox + num(), y2 = oy + num(), x = ox + num(), y = oy + num();
        const xs = bezierExtrema([cx, x1, x2, x]), ys = bezierExtrema([cy, y1, y2, y]);
        xs.forEach((v, k) => add(v, ys[k]));
        cx = x; cy = y;
        break;
      }
      default: throw new Error(`unexpected path command ${cmd}`);
    }
    add(cx, cy);
  }
  return box;
}
