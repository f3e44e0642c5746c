// The whole problem report reaches a pipe (issue 15.7): with 200,000
// problems and stderr a pipe, the report was cut at 64-128 KiB because the
// CLI called process.exit before the pipe drained, and the final line
// saying the site is unchanged was lost. Long lists are summarised: the
// first PER_KIND problems of each kind, then how many more like them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_KIND, summariseProblems, type Problem } from '../../generator/dataset/diagnostics.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { cliEnv } from '../support/run.ts';

let release: string;
let root: string;
beforeAll(() => {
  release = makeRelease(['MA0004.1']);
  root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-report-'));
  // 200,000 problems of two kinds: ids that are not ids, and the same id again.
  const csv = path.join(release, 'matrices.csv');
  const [header, good] = readFileSync(csv, 'utf8').split('\n');
  const rows = [header, good];
  for (let i = 0; i < 100_000; i++) rows.push(good.replace('MA0004.1,', `X${i},`), good);
  writeFileSync(csv, `${rows.join('\n')}\n`);
});
afterAll(() => {
  rmSync(release, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

/** Runs the CLI with stdout and stderr pipes, read slowly (a pipe that fills), to the end. */
function cli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), ...args], { cwd: PROJECT_ROOT, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => {
      chunks.push(c);
      // A slow reader: the pipe fills while the CLI is still writing.
      child.stderr.pause();
      setTimeout(() => child.stderr.resume(), 2);
    });
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr: Buffer.concat(chunks).toString('utf8') }));
  });
}

describe('the problem report through a pipe', () => {
  it('200,000 problems: summarised per kind, complete to its last line', async () => {
    const out = path.join(root, 'public');
    const r = await cli(['--data', release, '--out', out]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`build stopped: the dataset has 200,000 problems of 2 kinds (the first ${PER_KIND} of each kind listed):`);
    expect(lines.at(-1)).toMatch(/^Nothing was written; .*public is unchanged\.$/);
    expect(lines.filter((l) => /matrix_id "X\d+" is not <base_id>/.test(l))).toHaveLength(PER_KIND);
    expect(lines.filter((l) => /duplicate matrix_id MA0004\.1/.test(l))).toHaveLength(PER_KIND);
    expect(lines.filter((l) => l === `  … and ${(100_000 - PER_KIND).toLocaleString('en')} more like this`)).toHaveLength(2);
    expect(lines.length).toBe(1 + 2 * (PER_KIND + 1) + 1);
  }, 300_000);
});

describe('summariseProblems', () => {
  const p = (message: string, line: number): Problem => ({ file: 'matrices.csv', line, message, fix: 'fix it' });
  it('lists everything when no kind passes the limit, in order', () => {
    const list = [p('a "x" b', 2), p('c 1', 3), p('a "y" b', 4)];
    expect(summariseProblems(list, 2).split('\n')).toEqual(['  matrices.csv:2: a "x" b (fix: fix it)', '  matrices.csv:3: c 1 (fix: fix it)', '  matrices.csv:4: a "y" b (fix: fix it)']);
  });
  it('keeps the first of each kind and counts the rest after the last one kept', () => {
    const list = [p('a "x" b', 2), p('c 1', 3), p('a "y" b', 4), p('a "z" b', 5), p('c 22', 6)];
    expect(summariseProblems(list, 1).split('\n')).toEqual(['  matrices.csv:2: a "x" b (fix: fix it)', '  … and 2 more like this', '  matrices.csv:3: c 1 (fix: fix it)', '  … and 1 more like this']);
  });
});
