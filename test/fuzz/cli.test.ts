// A few fuzz cases through the real CLI (`node --import tsx generator/cli.ts`),
// as a user runs it, into an output folder that already holds a site: a
// refused release must exit non-zero with only file:line diagnostics on
// stderr (no stack trace), leave the previous site byte for byte as it was
// and no temporary folder behind; an accepted one must replace the site with
// one that, read back from disk, says exactly what the files say.
// FUZZ_CLI_RUNS sets the number of cases (default 3 + 4), FUZZ_SEED replays.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';
import { runCli, type Ran } from '../support/run.ts';
import { listFiles } from '../support/tree.ts';
import { baseFiles, corrupt, specArb, valueArb, writeFiles, type Spec } from './corrupt.ts';
import { checkSite, referenceRelease, type Files } from './oracle.ts';
import { diagnosticFaults, FUZZ_BASE_URL } from './run.ts';

const RUNS = Number(process.env.FUZZ_CLI_RUNS ?? 7);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const cli = (data: string, out: string): Promise<Ran> => runCli(['--data', data, '--out', out, '--base-url', FUZZ_BASE_URL], { timeout: 120_000 });

function snapshot(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((rel) => [rel, createHash('sha256').update(readFileSync(path.join(dir, rel))).digest('hex')]));
}

let root: string;
let out: string;
let base: Files;
const tally = { cases: 0, built: 0, refused: 0, ms: 0 };

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-fuzz-cli-'));
  out = path.join(root, 'public');
  base = baseFiles();
  const data = path.join(root, 'clean');
  writeFiles(base, data);
  const r = await cli(data, out);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 180_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  console.log(`fuzz (real CLI builds): ${tally.cases} cases, ${tally.built} built and checked from disk, ${tally.refused} refused with the previous site intact; ${(tally.ms / 1000).toFixed(1)} s`);
});

async function buildCase(specs: Spec[]): Promise<void> {
  const files = new Map(base);
  const expectation = corrupt(files, specs);
  const data = path.join(root, 'data');
  writeFiles(files, data);
  const before = snapshot(out);
  const started = performance.now();
  const r = await cli(data, out);
  tally.ms += performance.now() - started;
  tally.cases++;
  const label = JSON.stringify(specs);
  // Temporary folders of the writer (.public-new-…, .public-old-…); its build state stays by design.
  const leftovers = readdirSync(root).filter((n) => n.startsWith('.public-') && n !== '.public-build-state');
  expect(leftovers, label).toEqual([]);
  if (r.status === 0) {
    tally.built++;
    expect(expectation.outcome, `${label}: built, but should have been refused`).not.toBe('reject');
    const differences = checkSite((rel) => (existsSync(path.join(out, rel)) ? readFileSync(path.join(out, rel), 'utf8') : undefined), referenceRelease(files), FUZZ_BASE_URL);
    expect(differences, label).toEqual([]);
    return;
  }
  tally.refused++;
  expect(expectation.outcome, `${label}: refused:\n${r.stderr}`).not.toBe('accept');
  expect(r.status, label).toBe(1);
  expect(r.stdout, label).toBe('');
  expect(r.stderr, label).toMatch(/^build stopped: the dataset has \d+ problems?:\n/);
  expect(r.stderr, label).not.toMatch(/\n\s+at /);
  const problemLines = r.stderr.split('\n').slice(1, -2);
  const count = Number(/has (\d+) problem/.exec(r.stderr)![1]);
  expect(problemLines, label).toHaveLength(count);
  const problems = problemLines.map((line) => {
    const m = /^ {2}(.+?):(\d+): (.+) \(fix: (.+)\)$/.exec(line);
    expect(m, `${label}: not "file:line: what (fix: …)": ${line}`).not.toBeNull();
    return { file: path.resolve(PROJECT_ROOT, m![1]), line: Number(m![2]), message: m![3], fix: m![4] };
  });
  expect(diagnosticFaults(problems, data, files), label).toEqual([]);
  expect(snapshot(out), `${label}: the previous site changed`).toEqual(before);
}

describe('fuzzed releases through the real CLI', () => {
  const benign = fc.record({
    kind: fc.constantFrom('csvSwapColumns' as const, 'bedTrackLine' as const, 'jsonDelete' as const, 'jsonDeleteEntry' as const),
    a: fc.nat({ max: 1000 }),
    b: fc.nat({ max: 1000 }),
    value: valueArb,
  });

  it(`accepted changes replace the site with one that says what the files say (${Math.floor(RUNS / 2)} cases)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(benign, { minLength: 1, maxLength: 2 }), buildCase), { numRuns: Math.floor(RUNS / 2), ...(SEED === undefined ? {} : { seed: SEED }) });
  }, 600_000);

  it(`any corruption is refused without touching the previous site, or built exactly (${RUNS - Math.floor(RUNS / 2)} cases)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 2 }), buildCase), { numRuns: RUNS - Math.floor(RUNS / 2), ...(SEED === undefined ? {} : { seed: SEED }) });
  }, 600_000);
});
