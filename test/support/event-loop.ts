// Setup file of both projects (vitest.config.ts). A test worker talks to
// Vitest's main process over RPC with a fixed 60 s deadline (birpc's default;
// Vitest 3 has no option for it). A worker whose event loop is blocked for a
// minute — a spawnSync of a build, a synchronous walk of the full site, an
// rmSync of two full trees, or a run of synchronous tests with no macrotask
// between them — misses it, and the run ends with "Timeout calling
// onTaskUpdate", naming no test (CI on a busy 2-core machine, 2026-11-25).
//
// So: every test starts after one turn of the event loop, so spans are per
// test, not per file; a span longer than REPORT_MS is printed with the test or
// hook it happened in; one longer than LIMIT_MS fails there, naming it, before
// the RPC deadline fails the run anonymously.
import { afterAll, afterEach, beforeEach } from 'vitest';

const REPORT_MS = Number(process.env.LOOP_REPORT_MS ?? 15_000);
const LIMIT_MS = 45_000;

let last = performance.now();
let longest = 0;
const tick = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 250);
tick.unref();

/** The longest span without a turn of the event loop since the last call. */
function take(): number {
  const now = performance.now();
  const span = Math.max(longest, now - last);
  longest = 0;
  last = now;
  return span;
}

function check(where: string): void {
  const span = take();
  if (span <= REPORT_MS) return;
  const message = `${where} blocked the test worker's event loop for ${(span / 1000).toFixed(1)} s`;
  if (span > LIMIT_MS) throw new Error(`${message}: Vitest's RPC deadline is 60 s (test/support/event-loop.ts); make it asynchronous (spawn, fs.promises, a yield every so many items)`);
  process.stdout.write(`event loop: ${message}\n`);
}

const name = (task: { name: string; file?: { name: string } }) => `${task.file?.name ?? ''} > ${task.name}`;

beforeEach(async (context) => {
  check(`before ${name(context.task)} (the file's beforeAll, or the previous test's hooks)`);
  await new Promise((resolve) => setImmediate(resolve));
  take();
});

afterEach((context) => check(name(context.task)));

// Registered first, so it runs after the file's own afterAll hooks.
afterAll((suite) => check(`${suite.file?.name ?? suite.name} > afterAll`));
