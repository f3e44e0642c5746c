// Wall-clock marks of a build's steps (issue 22: which steps of a one-matrix rebuild lie on its critical
// path, the main thread waiting for the folder look or for workers). Printed on stderr by build() when
// JASPAR_TIMELINE is set (scripts/rebuild-profile.ts --timeline); otherwise a mark costs one test.
// Each mark also takes the main thread's own CPU time (Linux: /proc/thread-self/schedstat, in ns): on
// this shared machine the wall of a step follows the other processes' load, and a CPU profile's samples
// are weighted by the time between them, so neither says what a step costs; the thread's CPU does.
import { readFileSync } from 'node:fs';

const on = process.env.JASPAR_TIMELINE !== undefined && process.env.JASPAR_TIMELINE !== '';
const marks: [string, number, number][] = [];

/** The calling thread's CPU time in ms, NaN where /proc does not say (not Linux). */
function threadCpu(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Notes that a step ends (or begins) now. */
export function mark(label: string): void {
  if (on) marks.push([label, performance.now(), threadCpu()]);
}

/** The marks since the first, one a line ("  1234 ms  +56 ms  cpu +40 ms  label": the wall since the first mark and the
 *  previous one, and this thread's CPU since the previous one, since it started for the first), cleared; nothing when off. */
export function printTimeline(out: NodeJS.WritableStream = process.stderr): void {
  if (!on || marks.length === 0) return;
  const [, t0] = marks[0];
  let last = t0;
  // The first mark's CPU is the thread's since it started: Node's start and the generator's load.
  let lastCpu = 0;
  for (const [label, t, c] of marks) {
    out.write(`timeline ${(t - t0).toFixed(0).padStart(6)} ms ${`+${(t - last).toFixed(0)}`.padStart(6)} ms  cpu ${`+${(c - lastCpu).toFixed(0)}`.padStart(5)} ms  ${label}\n`);
    last = t;
    lastCpu = c;
  }
  marks.length = 0;
}
