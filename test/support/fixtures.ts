// Small releases made at run time from the shared one (never committed):
// copy a few matrices' rows and files into a temporary folder, then let a
// test corrupt them.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataDir } from './paths.ts';

export const FIXTURE_IDS = ['MA0004.1', 'MA0002.2', 'MA0074.1', 'MA1972.1', 'MA2191.1', 'UN0083.1', 'MA0014.2', 'MA0014.3', 'UN0498.1'];

/** Makes a release folder holding the given matrices (CSV rows in the shared order). */
export function makeRelease(ids: string[] = FIXTURE_IDS): string {
  const src = dataDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-fixture-'));
  const lines = readFileSync(path.join(src, 'matrices.csv'), 'utf8').split('\n');
  const wanted = new Set(ids);
  const kept = lines.slice(1).filter((l) => wanted.has(l.split(',')[0]));
  writeFileSync(path.join(dir, 'matrices.csv'), `${[lines[0], ...kept].join('\n')}\n`);
  copyMatrixFiles(src, dir, ids);
  return dir;
}

/** Copies the given matrices' files of a curated release folder (matrices/, sites/, their rows of pfm_noninteger.json) into dir. */
export function copyMatrixFiles(src: string, dir: string, ids: readonly string[]): void {
  mkdirSync(path.join(dir, 'matrices'), { recursive: true });
  mkdirSync(path.join(dir, 'sites'), { recursive: true });
  const precise = JSON.parse(readFileSync(path.join(src, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>;
  const keptPrecise: Record<string, unknown> = {};
  for (const id of ids) {
    copyFileSync(path.join(src, 'matrices', `${id}.jaspar`), path.join(dir, 'matrices', `${id}.jaspar`));
    const bed = path.join(src, 'sites', `${id}.bed`);
    if (existsSync(bed)) copyFileSync(bed, path.join(dir, 'sites', `${id}.bed`));
    if (precise[id] !== undefined) keptPrecise[id] = precise[id];
  }
  // The shared file's layout (one space of indent), so that a reader of either sees the same text.
  writeFileSync(path.join(dir, 'pfm_noninteger.json'), JSON.stringify(keptPrecise, null, 1));
}

/** Adds `by` to the first count of a JASPAR-format file (a .jaspar matrix or a bundle: its first matrix's first A count). */
export function addToFirstCount(file: string, by = 1): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^(A\s*\[\s*)(\d+)/m, (_, head: string, n: string) => `${head}${Number(n) + by}`));
}
