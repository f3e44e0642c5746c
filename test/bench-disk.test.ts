// The bench's disk check (scripts/bench-disk.ts): what it counts, and that it stops the bench before any build
// when the folders it keeps will not fit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDisk, DISK_A_MATRIX, diskNeeded, matricesIn } from '../scripts/bench-disk.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');

const temps: string[] = [];
afterEach(() => temps.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('bench disk check', () => {
  it('counts a curated release by matrices.csv and a folder of download files by its metadata table', () => {
    expect(matricesIn(path.join(PROJECT_ROOT, 'data/jaspar-2024'))).toBe(5278);
    expect(matricesIn(path.join(PROJECT_ROOT, 'data/jaspar-2026'))).toBe(4572);
    const empty = mkdtempSync(path.join(os.tmpdir(), 'jaspar-bench-disk-'));
    temps.push(empty);
    writeFileSync(path.join(empty, 'notes.txt'), 'matrix_id\n');
    expect(matricesIn(empty)).toBe(0);
  });

  it('adds every build the bench keeps', () => {
    const matrices = (d: string) => ({ a: 100, b: 50 })[d]!;
    const disk = (d: string) => ({ a: 7 })[d]!;
    expect(diskNeeded({ site: ['a', 'b'], runs: 3, floor: false, times: 1, scaleRuns: 1 }, 'a', matrices, disk).bytes).toBe(7 + 3 * 150 * DISK_A_MATRIX);
    expect(diskNeeded({ site: ['a', 'b'], runs: 3, floor: true, times: 1, scaleRuns: 1 }, 'a', matrices, disk).bytes).toBe(7 + 6 * 150 * DISK_A_MATRIX);
    // --scale-only --times 10 --scale-runs 3: three builds of the first release alone and three of 10x, and the 10x release.
    expect(diskNeeded({ site: [], runs: 3, floor: false, times: 10, scaleRuns: 3 }, 'a', matrices, disk).bytes).toBe(7 + 10 * 7 + 3 * 11 * 100 * DISK_A_MATRIX);
  });

  it('stops the bench with what it needs and what to do when the disk has too little free, and lets it run otherwise', () => {
    const plan = { site: [], runs: 3, floor: false, times: 10, scaleRuns: 3 };
    const first = path.join(PROJECT_ROOT, 'data/jaspar-2024');
    const need = diskNeeded(plan, first).bytes;
    // The 10x scale bench keeps about 35 GB: three 10x builds (the one that failed with ENOSPC) and three of 1x.
    expect(need).toBeGreaterThan(30e9);
    expect(() => checkDisk('/scratch', plan, first, () => need - 1)).toThrow(/^\/scratch: the bench needs about \d+\.\d GB on disk \(3 builds of the first release alone .* GB are free \(fix: /);
    expect(() => checkDisk('/scratch', plan, first, () => need)).not.toThrow();
  });
});
