// Mirror threads started ahead of the archives (mirror/gzip.ts startThreadsAhead, build.ts: a rebuild starts them
// once its folder look is done): a process that started them and asked nothing of them still exits. Node 20
// references a worker again when a 'message' listener is added, so one unreferenced before its listeners kept
// the process alive (a rebuild that started them ahead never exited).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../generator/build.ts';

const CHILD = `
import { startThreadsAhead, startedThreads } from ${JSON.stringify(path.join(PROJECT_ROOT, 'generator/mirror/gzip.ts'))};
startThreadsAhead(2);
process.stdout.write(String(startedThreads()));
`;

describe('mirror threads started ahead', () => {
  it('are started, and do not keep the process from exiting', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThanOrEqual(1);
  }, 30_000);
});
