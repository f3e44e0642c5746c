// A bad dataset (or bad flags) stops the CLI build with every problem as
// file:line and a fix, a non-zero exit, and the previous site untouched:
// run as a user runs it, `node --import tsx generator/cli.ts …`.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { cliEnv, runCli, type Ran } from '../support/run.ts';

const cli = (args: string[]): Promise<Ran> => runCli(args, { timeout: 120_000 });

/** relative path → sha256 of the bytes, for every file under dir (sorted). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out[r] = createHash('sha256').update(readFileSync(path.join(dir, r))).digest('hex');
    }
  };
  walk('');
  return out;
}

/** Folders beside the output that a build left behind (temporary folders); the build state (.public-build-state) belongs there. */
const leftovers = (parent: string) => readdirSync(parent).filter((n) => n.startsWith('.public-') && n !== '.public-build-state');

const shown = (file: string) => path.relative(PROJECT_ROOT, file);
const BASE = 'http://localhost:8080';

describe('a build with a bad dataset or bad flags', () => {
  let root: string;
  let out: string;
  let clean: string;
  let before: Record<string, string>;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-bad-input-'));
    out = path.join(root, 'public');
    clean = makeRelease();
    const r = await cli(['--data', clean, '--out', out, '--base-url', BASE]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^built 9 matrices/);
    before = snapshot(out);
  }, 120_000);

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(clean, { recursive: true, force: true });
  });

  it('the clean fixture built a site', () => {
    expect(Object.keys(before).length).toBeGreaterThan(50);
    expect(before).toHaveProperty(['api/v1/matrix/MA0004.1/index.json']);
    expect(before).toHaveProperty(['404.html']);
    expect(leftovers(root)).toEqual([]);
  });

  it('stops on several problems at once, lists each as file:line with a fix, and leaves public/ as it was', async () => {
    const bad = makeRelease();
    try {
      const j = (id: string) => path.join(bad, 'matrices', `${id}.jaspar`);
      // 1. a negative count (MA0004.1, T row = line 5)
      writeFileSync(j('MA0004.1'), readFileSync(j('MA0004.1'), 'utf8').replace('T  [     0', 'T  [    -3'));
      // 2. CRLF line ends in another matrix file
      writeFileSync(j('MA0002.2'), readFileSync(j('MA0002.2'), 'utf8').replace(/\n/g, '\r\n'));
      // 3. a duplicate id row (MA0074.1 again, as the last line)
      const csv = path.join(bad, 'matrices.csv');
      const lines = readFileSync(csv, 'utf8').split('\n');
      const first = lines.findIndex((l) => l.startsWith('MA0074.1,')) + 1;
      appendFileSync(csv, `${lines[first - 1]}\n`);
      const dupLine = lines.length; // the file ended with "\n": the appended row is this line
      // 4. a matrix file without a row
      writeFileSync(j('MA9999.1'), readFileSync(j('MA0004.1'), 'utf8').replace('MA0004.1', 'MA9999.1'));

      const r = await cli(['--data', bad, '--out', out, '--base-url', BASE]);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toBe('');
      const expected = [
        [`${shown(j('MA0004.1'))}:5:`, /"-3" is negative/],
        [`${shown(j('MA0002.2'))}:1:`, /CRLF/],
        [`${shown(csv)}:${dupLine}:`, new RegExp(`duplicate matrix_id MA0074\\.1 \\(first on line ${first}\\)`)],
        [`${shown(j('MA9999.1'))}:1:`, /has no row in matrices\.csv/],
      ] as const;
      const problemLines = r.stderr.split('\n').filter((l) => /^ {2}\S+:\d+: /.test(l));
      for (const [where, what] of expected) {
        const line = problemLines.find((l) => l.startsWith(`  ${where} `));
        expect(line, `stderr names ${where}\n${r.stderr}`).toBeDefined();
        expect(line).toMatch(what);
        expect(line).toMatch(/\(fix: \S.*\)$/);
      }
      expect(problemLines).toHaveLength(expected.length);
      expect(r.stderr).toMatch(/^build stopped: the dataset has 4 problems:\n/);
      expect(r.stderr).toMatch(/Nothing was written; .*public is unchanged\.\n$/);

      expect(snapshot(out)).toEqual(before);
      expect(leftovers(root)).toEqual([]);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it('creates no output folder when there was none', async () => {
    const bad = makeRelease();
    try {
      writeFileSync(path.join(bad, 'matrices', 'MA0004.1.jaspar'), '');
      const fresh = path.join(root, 'fresh', 'public');
      const r = await cli(['--data', bad, '--out', fresh, '--base-url', BASE]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`${shown(path.join(bad, 'matrices', 'MA0004.1.jaspar'))}:1: the matrix file is empty`);
      expect(existsSync(fresh)).toBe(false);
      expect(existsSync(path.join(root, 'fresh')) ? leftovers(path.join(root, 'fresh')) : []).toEqual([]);
    } finally {
      rmSync(bad, { recursive: true, force: true });
      rmSync(path.join(root, 'fresh'), { recursive: true, force: true });
    }
  });

  it('says clearly when --data is not a release folder', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'jaspar-empty-'));
    try {
      const r = await cli(['--data', empty, '--out', out, '--base-url', BASE]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`${shown(path.join(empty, 'matrices.csv'))}:1: matrices.csv is missing`);
      expect(r.stderr).toMatch(/fix: point --data at a JASPAR release folder/);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(snapshot(out)).toEqual(before);
      expect(leftovers(root)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says clearly when --data does not exist', async () => {
    const missing = path.join(root, 'no-such-release');
    const r = await cli(['--data', missing, '--out', out, '--base-url', BASE]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/matrices\.csv is missing/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(out)).toEqual(before);
  });

  it.each([
    ['ftp://x', /--base-url "ftp:\/\/x" must start with http:\/\/ or https:\/\//],
    ['not a url', /--base-url "not a url" is not an absolute URL/],
    ['http://x/?q=1', /must not carry a query or fragment/],
  ])('refuses --base-url %j with a clear message and leaves public/ as it was', async (url, message) => {
    const r = await cli(['--data', clean, '--out', out, '--base-url', url]);
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(out)).toEqual(before);
    expect(leftovers(root)).toEqual([]);
  });

  it('refuses JASPAR_DATA that names no folder with a message, not a stack trace', async () => {
    const r = await runCli(['--out', out, '--base-url', BASE], { timeout: 120_000, env: { ...cliEnv(), JASPAR_DATA: path.delimiter } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/JASPAR_DATA ".*" names no release folder \(fix: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(out)).toEqual(before);
  });

  it('refuses an unknown flag with a message, not a stack trace', async () => {
    const r = await cli(['--data', clean, '--out', out, '--base-url', BASE, '--bogus']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Unknown option '--bogus'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(out)).toEqual(before);
  });
});
