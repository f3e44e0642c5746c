// A rebuild of an unchanged release does nothing; a changed matrix rewrites
// its own files, the pages that list it and the whole-release files, and
// nothing else keeps anything but its mtime. Run as a user runs it.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { runCli } from '../support/run.ts';
import { listFiles } from '../support/tree.ts';

async function cli(data: string, out: string): Promise<string> {
  const r = await runCli(['--data', data, '--out', out, '--base-url', 'http://localhost:8080'], { timeout: 120_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

const mtimes = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, statSync(path.join(dir, f)).mtimeMs]));

describe('rebuilding', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-rebuild-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('an unchanged release: up to date, nothing written', async () => {
    await cli(data, out);
    const before = mtimes(out);
    const stdout = await cli(data, out);
    expect(stdout).toMatch(/^built 9 matrices, .*\(up to date, nothing written\)/);
    expect(mtimes(out)).toEqual(before);
  }, 120_000);

  it('one matrix changed: its files, the lists that show it and the whole-release files', async () => {
    const before = mtimes(out);
    const file = path.join(data, 'matrices', 'MA0004.1.jaspar');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^(A\s*\[\s*)(\d+)/m, (_, head, n) => `${head}${Number(n) + 1}`));
    const stdout = await cli(data, out);
    const rewritten = Object.entries(mtimes(out)).filter(([f, m]) => before[f] !== m).map(([f]) => f);
    // The count is the writer's: the mirror archive, its checksum and the manifest are written after it.
    const reported = Number(/\((\d+) written, 0 removed/.exec(stdout)?.[1]);
    expect(reported).toBeGreaterThanOrEqual(rewritten.length - 3);
    expect(reported).toBeLessThanOrEqual(rewritten.length);
    expect(rewritten).toContain('api/v1/matrix/MA0004.1/index.json');
    expect(rewritten).toContain('static/logos/svg/MA0004.1.svg');
    const expected = (f: string) =>
      /^api\/v1\/matrix\/MA0004(\.1)?\//.test(f) || // its detail, its base id's latest and versions
      f === 'static/logos/svg/MA0004.1.svg' ||
      /(^|\/)page\/\d+\//.test(f) || // list pages (any view) that show it
      /^api\/v1\/(collections|taxon|species)\/[^/]+\/index\./.test(f) || // a collection's, taxon's or species' first page
      f.startsWith('download/') || // bulk files, mirror archive and manifest
      f === '_edge/matrices.json'; // the edge handler's copy of every matrix's counts
    expect(rewritten.filter((f) => !expected(f))).toEqual([]);
    // Other matrices keep everything.
    expect(rewritten.filter((f) => f.includes('MA0002') || f.includes('MA0074'))).toEqual([]);
  }, 120_000);
});
