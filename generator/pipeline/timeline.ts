// Wall-clock marks of a build's steps (issue 22: which steps of a one-matrix rebuild lie on its critical
// path, the main thread waiting for the folder look or for workers). Printed on stderr by build() when
// JASPAR_TIMELINE is set (scripts/rebuild-profile.ts --timeline); otherwise a mark costs one test.
const on = process.env.JASPAR_TIMELINE !== undefined && process.env.JASPAR_TIMELINE !== '';
const marks: [string, number][] = [];

/** Notes that a step ends (or begins) now. */
export function mark(label: string): void {
  if (on) marks.push([label, performance.now()]);
}

/** The marks since the first, one a line ("  1234 ms  +56 ms  label"), cleared; nothing when off. */
export function printTimeline(out: NodeJS.WritableStream = process.stderr): void {
  if (!on || marks.length === 0) return;
  const [, t0] = marks[0];
  let last = t0;
  for (const [label, t] of marks) {
    out.write(`timeline ${(t - t0).toFixed(0).padStart(6)} ms ${`+${(t - last).toFixed(0)}`.padStart(6)} ms  ${label}\n`);
    last = t;
  }
  marks.length = 0;
}
