// Threads started from code as text (mirror/threads.ts) run in a process whose Node options make
// code a module by default: the gzip threads, the render workers and the folder look failed there
// with "require is not defined" (a test's node -e --input-type=module build).
import { describe, expect, it } from 'vitest';
import { run } from '../support/run.ts';

const script = (code: string) => `import { codeThread } from './generator/mirror/threads.ts';
const t = codeThread(${JSON.stringify(code)});
t.on('message', (m) => { console.log(m); t.terminate(); });
t.on('error', (e) => { console.log('failed: ' + e.message); process.exitCode = 1; });`;

describe('codeThread', () => {
  const code = "require('node:worker_threads').parentPort.postMessage(typeof require('node:zlib').gzipSync)";
  for (const flags of [['--input-type=module'], ['--input-type', 'module']]) {
    it(`runs CommonJS code in a process started with ${flags.join(' ')}`, async () => {
      const r = await run(process.execPath, ['--import', 'tsx', ...flags, '-e', script(code)], { timeout: 60_000 });
      expect(r.stdout.trim()).toBe('function');
      expect(r.status).toBe(0);
    });
  }
  it('starts in a process with V8 options a thread may not be given (a build profiled or tuned: --max-semi-space-size, --perf-basic-prof)', async () => {
    // CommonJS -e (no --input-type): the thread inherits the options; given them, it was refused (ERR_WORKER_INVALID_EXEC_ARGV).
    const cjs = `import('./generator/mirror/threads.ts').then(({ codeThread }) => {
const t = codeThread(${JSON.stringify(code)});
t.on('message', (m) => { console.log(m); t.terminate(); });
t.on('error', (e) => { console.log('failed: ' + e.message); process.exitCode = 1; });
}, (e) => { console.log('failed: ' + e.message); process.exitCode = 1; });`;
    const r = await run(process.execPath, ['--max-semi-space-size=16', '--import', 'tsx', '-e', cjs], { timeout: 60_000 });
    expect(r.stdout.trim()).toBe('function');
    expect(r.status).toBe(0);
  });
  it('keeps the other Node options (a thread whose code fails still says why)', async () => {
    const r = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script("throw new Error('boom')")], { timeout: 60_000 });
    expect(r.stdout).toContain('failed: boom');
    expect(r.status).toBe(1);
  });
});
