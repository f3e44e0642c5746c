// Issue 15, input side, through the CLI as a user runs it: the up-to-date
// fingerprint sees what the loader reads through links (15.2); values a
// renderer cannot write, special files and a bad release description stop
// the build before anything is written, the output folder byte-identical
// (15.4, 15.6, 15.11); a CRLF + BOM matrices.csv builds the same bytes as
// the LF file (issue 12 §3).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { cliEnv } from '../support/run.ts';
import { listFiles } from '../support/tree.ts';

/** relative path → sha256 of the bytes, for every file under dir. */
const snapshot = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex')]));

/** The CLI in a child process; asynchronous, so that the test worker keeps answering vitest meanwhile. */
function cli(args: string[], timeout = 120_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), '--base-url', 'http://localhost:8080', ...args], { cwd: PROJECT_ROOT, env: cliEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A build that hangs (a FIFO opened for reading) fails the test instead of the run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the build did not end within ${timeout / 1000} s`));
    }, timeout);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
const shown = (file: string) => path.relative(PROJECT_ROOT, file);
/** The first count of the A row of a matrix as its JSON detail serves it. */
const servedCount = (out: string, id: string) => (JSON.parse(readFileSync(path.join(out, 'api/v1/matrix', id, 'index.json'), 'utf8')) as { pfm: { A: number[] } }).pfm.A[0];
function bumpFirstCount(file: string): number {
  let next = 0;
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^(A\s*\[\s*)(\d+)/m, (_, head, n) => `${head}${(next = Number(n) + 7)}`));
  return next;
}

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));
function temp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-input-files-'));
  made.push(dir);
  return dir;
}
function release(): string {
  const dir = makeRelease();
  made.push(dir);
  return dir;
}

// git-annex and shared stores keep each version of a file as its own object
// and point the link at the new one when the file changes: the objects stay
// as they were, only the link moves. The fingerprint must follow the link.
describe('the up-to-date fingerprint sees what the loader reads through links (issue 15.2)', () => {
  /** Two versions of MA0004.1 in a store inside the release: the clean one and one with another first count. */
  function store(data: string, dir: string): { count: number } {
    mkdirSync(path.join(data, dir), { recursive: true });
    const text = readFileSync(path.join(data, 'matrices/MA0004.1.jaspar'), 'utf8');
    writeFileSync(path.join(data, dir, 'v1.jaspar'), text);
    writeFileSync(path.join(data, dir, 'v2.jaspar'), text);
    return { count: bumpFirstCount(path.join(data, dir, 'v2.jaspar')) };
  }
  /** Builds, moves the link, rebuilds: the new content must be published. */
  async function rebuildAfter(data: string, move: () => void, check: (out: string) => void): Promise<void> {
    const out = path.join(temp(), 'public');
    const first = await cli(['--data', data, '--out', out]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    move();
    const second = await cli(['--data', data, '--out', out]);
    expect(second.status).toBe(0);
    expect(second.stdout).not.toMatch(/up to date/);
    check(out);
    // And once rebuilt, it is up to date again.
    expect((await cli(['--data', data, '--out', out])).stdout).toMatch(/up to date, nothing written/);
  }

  it('a .jaspar file that is a link, pointed at another version', async () => {
    const data = release();
    const { count } = store(data, '.annex/objects');
    const link = path.join(data, 'matrices/MA0004.1.jaspar');
    rmSync(link);
    symlinkSync('../.annex/objects/v1.jaspar', link);
    await rebuildAfter(data, () => {
      rmSync(link);
      symlinkSync('../.annex/objects/v2.jaspar', link);
    }, (out) => expect(servedCount(out, 'MA0004.1')).toBe(count));
  }, 180_000);

  it('a matrices/ folder that is a link, pointed at another folder', async () => {
    const data = release();
    mkdirSync(path.join(data, '.store'));
    renameSync(path.join(data, 'matrices'), path.join(data, '.store/a'));
    cpSync(path.join(data, '.store/a'), path.join(data, '.store/b'), { recursive: true });
    const count = bumpFirstCount(path.join(data, '.store/b/MA0004.1.jaspar'));
    symlinkSync('.store/a', path.join(data, 'matrices'));
    await rebuildAfter(data, () => {
      rmSync(path.join(data, 'matrices'));
      symlinkSync('.store/b', path.join(data, 'matrices'));
    }, (out) => expect(servedCount(out, 'MA0004.1')).toBe(count));
  }, 180_000);

  it('every file of the release folder counts, not only the kinds read today (a linked file in sources/)', async () => {
    const data = release();
    store(data, '.store');
    mkdirSync(path.join(data, 'sources'));
    const link = path.join(data, 'sources/JASPAR2024_CORE_non-redundant_pfms_jaspar.txt');
    symlinkSync('../.store/v1.jaspar', link);
    await rebuildAfter(data, () => {
      rmSync(link);
      symlinkSync('../.store/v2.jaspar', link);
    }, () => undefined);
  }, 180_000);
});

describe('a refused input stops the build before anything is written', () => {
  let clean: string;
  let out: string;
  let before: Record<string, string>;
  beforeAll(async () => {
    clean = release();
    out = path.join(temp(), 'public');
    const r = await cli(['--data', clean, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    before = snapshot(out);
  }, 120_000);

  /** Runs a build that must be refused; returns its problem lines. */
  async function refused(args: string[], timeout?: number): Promise<string[]> {
    const r = await cli(['--out', out, ...args], timeout);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toMatch(/is unchanged\.\n$/);
    expect(snapshot(out)).toEqual(before);
    return r.stderr.split('\n').filter((l) => /^ {2}\S+:\d+: .* \(fix: \S.*\)$/.test(l));
  }

  it('a 400-digit BED coordinate (was: "cannot write Infinity as JSON" after 12 files were rewritten)', async () => {
    const data = release();
    const file = path.join(data, 'sites/MA0014.2.bed');
    appendFileSync(file, `chr1\t${'9'.repeat(400)}\t${'9'.repeat(400)}\tx\t.\t+\n`);
    const line = readFileSync(file, 'utf8').split('\n').length - 1;
    expect(await refused(['--data', data])).toEqual([expect.stringMatching(new RegExp(`^  ${shown(file).replace(/[.]/g, '\\.')}:${line}: coordinate .* is above 2\\^53`))]);
  }, 120_000);

  it('a FIFO as a .jaspar file (was: the build hung)', async () => {
    const data = release();
    const file = path.join(data, 'matrices/MA0004.1.jaspar');
    rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(await refused(['--data', data], 60_000)).toEqual([`  ${shown(file)}:1: the file is a FIFO (named pipe), not a regular file (fix: replace it with a regular file, or remove it)`]);
  }, 120_000);

  it('a link to /dev/zero as pfm_noninteger.json (was: memory ran out)', async () => {
    const data = release();
    const file = path.join(data, 'pfm_noninteger.json');
    rmSync(file);
    symlinkSync('/dev/zero', file);
    expect(await refused(['--data', data], 60_000)).toEqual([expect.stringMatching(/pfm_noninteger\.json:1: the file is a link that leads outside the release folder/)]);
  }, 120_000);

  it('a FIFO as the release description (--release)', async () => {
    const file = path.join(temp(), 'release.yaml');
    execFileSync('mkfifo', [file]);
    expect(await refused(['--data', clean, '--release', file], 60_000)).toEqual([`  ${file}:1: the release description is a FIFO (named pipe), not a regular file (fix: replace it with a regular file, or remove it)`]);
  }, 120_000);

  it('a missing release description (--release)', async () => {
    const file = path.join(temp(), 'no-such-release.yaml');
    expect(await refused(['--data', clean, '--release', file])).toEqual([expect.stringMatching(new RegExp(`^  ${file.replace(/[.]/g, '\\.')}:1: the release description is missing`))]);
  }, 120_000);

  it.each([
    ['a newline in transfac_from (would forge a line in every TRANSFAC file)', 'transfac_from: "From JASPAR\\nXX forged"', 2, /"transfac_from" contains a control character/],
    ['year: .nan (was: a raw crash while rendering)', 'year: .nan', 2, /"year" must be a whole number/],
  ])('a release description with %s', async (_name, replace, line, message) => {
    const file = path.join(temp(), 'release.yaml');
    const lines = ['name: JASPAR 2024', 'year: 2024', 'transfac_from: From JASPAR', 'meme_url: http://jaspar.genereg.net/matrix/{matrix_id}'];
    const key = replace.split(':')[0];
    const at = lines.findIndex((l) => l.startsWith(`${key}:`));
    lines[at] = replace;
    writeFileSync(file, `# description\n${lines.join('\n')}\n`);
    const problems = await refused(['--data', clean, '--release', file]);
    expect(problems).toHaveLength(1);
    // The description is named as --release gave it.
    expect(problems[0].startsWith(`  ${file}:${at + line}: `) || problems[0].startsWith(`  ${shown(file)}:${at + line}: `)).toBe(true);
    expect(problems[0]).toMatch(message);
  }, 120_000);
});

describe('matrices.csv with a BOM and CRLF line ends (issue 12 §3)', () => {
  it('builds the same bytes as the LF file', async () => {
    const lf = release();
    const crlf = release();
    const csv = path.join(crlf, 'matrices.csv');
    writeFileSync(csv, `\uFEFF${readFileSync(csv, 'utf8').replace(/\n/g, '\r\n')}`);
    const outLf = path.join(temp(), 'public');
    const outCrlf = path.join(temp(), 'public');
    expect((await cli(['--data', lf, '--out', outLf])).status).toBe(0);
    const r = await cli(['--data', crlf, '--out', outCrlf]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const a = snapshot(outLf);
    expect(Object.keys(a).length).toBeGreaterThan(50);
    expect(snapshot(outCrlf)).toEqual(a);
  }, 240_000);
});
