// Does the bench fit on the disk? scripts/bench.ts keeps every build's folder
// until it ends (a step after the deletion of a large tree waits for the
// disk's discard), so three 10x builds hold about 30 GB at once. The first
// scale bench of issue 22 failed with ENOSPC six minutes in, in its second
// 10x build; this says so before the first build, with what to do.
import { readdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { sniff } from '../generator/dataset/official/detect.ts';

/**
 * Bytes on disk a built site takes a matrix of its releases, its build state
 * and archives included, rounded up. Measured with `du -sB1` (blocks, not
 * sizes: most files are smaller than a 4 KiB block): JASPAR 2024 alone,
 * 5,278 matrices, 1.34 GB with its state (254 KB a matrix); its 3x
 * synthetic, 15,834 matrices, 3.88 GB (245 KB a matrix).
 */
export const DISK_A_MATRIX = 260_000;

/** Matrices in a release folder: matrices.csv's rows (a curated release), or those of JASPAR's metadata table (a folder of download files); 0 when it has neither. */
export function matricesIn(dir: string): number {
  const rows = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length - 1;
  try {
    return rows(path.join(dir, 'matrices.csv'));
  } catch {
    // a folder of JASPAR's download files
  }
  let most = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!statSync(file).isFile()) continue;
    const text = readFileSync(file, 'utf8');
    if (sniff(text.slice(0, text.indexOf('\n') >>> 0)) === 'metadata') most = Math.max(most, rows(file));
  }
  return most;
}

/** Bytes a folder's files take on disk (the synthetic release is written from the first release's files). */
function diskOf(dir: string): number {
  let bytes = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) bytes += diskOf(file);
    else if (e.isFile()) bytes += statSync(file).blocks * 512;
  }
  return bytes;
}

export interface BenchPlan {
  /** Every release folder of the site builds; none when they are not run (--scale-only). */
  site: string[];
  runs: number;
  /** --floor: a copy of each full build beside it. */
  floor: boolean;
  /** The synthetic release's size; 1: no scale builds. */
  times: number;
  scaleRuns: number;
}

/** What the bench will hold on disk at its end, each part named (bytes). */
export function diskNeeded(plan: BenchPlan, first: string, matrices: (dir: string) => number = matricesIn, disk: (dir: string) => number = diskOf): { bytes: number; parts: string[] } {
  const parts: string[] = [];
  const input = disk(first);
  let bytes = input; // the writable copy of the first release
  const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;
  if (plan.site.length > 0) {
    const site = plan.site.reduce((n, d) => n + matrices(d), 0) * DISK_A_MATRIX;
    const copies = plan.runs * (plan.floor ? 2 : 1);
    bytes += copies * site;
    parts.push(`${copies} site build${copies === 1 ? '' : 's'} of ${gb(site)}`);
  }
  if (plan.times > 1) {
    const one = matrices(first) * DISK_A_MATRIX;
    bytes += plan.times * input + plan.scaleRuns * (1 + plan.times) * one;
    parts.push(`${plan.scaleRuns} build${plan.scaleRuns === 1 ? '' : 's'} of the first release alone (${gb(one)}) and of ${plan.times}x (${gb(plan.times * one)})`, `the ${plan.times}x release itself (${gb(plan.times * input)})`);
  }
  return { bytes, parts };
}

/** Throws, before anything is written, when the bench's folders will not fit in the free space under `scratch`. */
export function checkDisk(scratch: string, plan: BenchPlan, first: string, free = (dir: string) => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}): void {
  const need = diskNeeded(plan, first);
  const has = free(scratch);
  if (need.bytes <= has) return;
  throw new Error(`${scratch}: the bench needs about ${(need.bytes / 1e9).toFixed(1)} GB on disk (${need.parts.join(', ')}; each kept until the end), and ${(has / 1e9).toFixed(1)} GB are free (fix: free some space, give --scratch DIR on a disk with more, or ask for fewer builds: --runs, --scale-runs, --times)`);
}
