// Incremental equals full (issue 22): random edits to a small release (a
// count, a name, a taxonomic group or data type, a matrix added, a matrix
// removed), then a rebuild of the previous folder gives the bytes of a build
// into a new folder. The property runs in a child process
// (incremental-equals-full.ts: builds block the event loop); its seed is
// printed with any failure, to replay it with --seed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';
import { run } from '../support/run.ts';

describe('an incremental rebuild', () => {
  it('writes what a full build writes, after any edits to the release', async () => {
    const r = await run(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'test/build/incremental-equals-full.ts'), '--runs', '8'], { timeout: 280_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as { cases: number; patched: number; kept: number; seconds: number; failure: string | null };
    expect(result.failure).toBeNull();
    expect(result.cases).toBe(8);
    // The first case (counts alone) patches the archives; the others may (no matrix added or removed).
    expect(result.patched).toBeGreaterThanOrEqual(1);
    // It keeps the previous plan too (pipeline/kept-plan.ts): its tasks that show no changed record are not planned.
    expect(result.kept).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('writes what a full build writes on a render worker, which renders from the texts the previous build kept', async () => {
    // pipeline/fragments.ts: the rebuilt folder's builds keep records' texts and read them back; the new folders' start without.
    const r = await run(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'test/build/incremental-equals-full.ts'), '--runs', '3', '--workers', '1'], { timeout: 280_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as { cases: number; failure: string | null };
    expect(result.failure).toBeNull();
    expect(result.cases).toBe(3);
  }, 300_000);
});
