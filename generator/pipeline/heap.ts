// How V8's heaps grow in a build, chosen from the build's size once its releases are read.
//
// A heap grows by up to 1.1-4x its live size after each full collection (V8 picks by the time
// collections take): a large build's plan and render workers are mostly live objects and short-lived
// texts, so the heaps sat far above what they held. --heap-growing-percent=30 (growing by 30% each
// time) collects more often and keeps less garbage: the 10x synthetic release's peak RSS 1,363-1,465 MB
// without it, 1,068-1,087 MB with it (issue 22: at most 1 GB). But it costs CPU where the peak does not
// matter: the shipped two-release site (9,850 matrices), 3 alternating full builds each into tmpfs, quiet:
// user CPU 26.8/27.7/27.6 s with it, 24.1/25.7/25.3 s without (plan 3.2-3.3 against 2.6-2.9 s, render+write
// 17.7-19.3 against 15.7-16.9 s), peak RSS 489-520 against 716-796 MB. So it is set only for a build of
// more than LARGE_BUILD_MATRICES matrices, after the releases are read and before the plan and the
// workers grow: V8 reads the flag at each collection, so a flag set then holds for the rest of the
// process, the workers' heaps included (V8's flags are the process's); measured with a heap of
// long-lived and dying objects, set at start or after a few collections: the same peak (586-599 MB,
// 986-1,011 MB without).
//
// A limit on the heap's size is not set: past it a build fails (ERR_WORKER_OUT_OF_MEMORY at 10x with
// 128 MB a worker); this shapes collections only.
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

/** Matrices (all releases) above which a build's heaps grow by 30% at most: about twice the shipped site (9,850), a third of the 10x synthetic release (52,780). */
export const LARGE_BUILD_MATRICES = 20_000;

/** V8's flags for a large build (v8.setFlagsFromString). */
export const LARGE_BUILD_V8_FLAGS: readonly string[] = ['--heap-growing-percent=30'];

/** The V8 flags a build of this many matrices sets. */
export const heapFlagsFor = (matrices: number): readonly string[] => (matrices > LARGE_BUILD_MATRICES ? LARGE_BUILD_V8_FLAGS : []);

/**
 * Sets heapFlagsFor(matrices) in this process, from its main thread (a flag set stays set: a process
 * that builds a large site and then a small one, a test run, keeps them). Returns the flags set.
 */
export function setHeapFlags(matrices: number): readonly string[] {
  const flags = isMainThread ? heapFlagsFor(matrices) : [];
  for (const flag of flags) v8.setFlagsFromString(flag);
  return flags;
}
