// Wall-clock marks of a build's steps (issue 22: which steps of a one-matrix rebuild lie on its critical
// path, the main thread waiting for the folder look or for workers). Printed on stderr by build() when
// JASPAR_TIMELINE is set (scripts/rebuild-profile.ts --timeline); otherwise a mark costs one test.
// Each mark also takes the main thread's own CPU time (Linux: /proc/thread-self/schedstat, in ns): on
// this shared machine the wall of a step follows the other processes' load, and a CPU profile's samples
// are weighted by the time between them, so neither says what a step costs; the thread's CPU does.
import { readFileSync } from 'node:fs';

const on = process.env.JASPAR_TIMELINE !== undefined && process.env.JASPAR_TIMELINE !== '';
const marks: [string, number, number, number][] = [];

/** The calling thread's CPU time and its time runnable but waiting for a core, in ms (schedstat's first two fields), NaN
 *  where /proc does not say (not Linux). A step's wall less both is the time the thread slept: waiting for another
 *  thread or for the kernel, whatever the machine's load (which lengthens the second). */
function threadTimes(): [number, number] {
  try {
    const [cpu, queued] = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ');
    return [Number(cpu) / 1e6, Number(queued) / 1e6];
  } catch {
    return [NaN, NaN];
  }
}

/** Notes that a step ends (or begins) now. */
export function mark(label: string): void {
  if (on) marks.push([label, performance.now(), ...threadTimes()]);
}

/** The marks since the first, one a line ("  1234 ms  +56 ms  cpu +40 ms  slept +10 ms  label": the wall since the first
 *  mark and the previous one, this thread's CPU since the previous one (since it started, for the first), and the
 *  time it slept, neither running nor waiting for a core), cleared; nothing when off. */
export function printTimeline(out: NodeJS.WritableStream = process.stderr): void {
  if (!on || marks.length === 0) return;
  const [, t0] = marks[0];
  let last = t0;
  // The first mark's CPU is the thread's since it started: Node's start and the generator's load.
  let lastCpu = 0;
  let lastQueued = marks[0][3];
  for (const [label, t, c, q] of marks) {
    const slept = Math.max(0, t - last - (c - lastCpu) - (q - lastQueued));
    out.write(`timeline ${(t - t0).toFixed(0).padStart(6)} ms ${`+${(t - last).toFixed(0)}`.padStart(6)} ms  cpu ${`+${(c - lastCpu).toFixed(0)}`.padStart(5)} ms  slept ${`+${slept.toFixed(0)}`.padStart(5)} ms  ${label}\n`);
    last = t;
    lastCpu = c;
    lastQueued = q;
  }
  marks.length = 0;
}
