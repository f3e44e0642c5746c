// One fuzz case, in process: write the release folder, load it and plan the
// whole site (generator/build.ts planSite: everything but the writing), and
// judge the result. A case must end in a DatasetError whose problems are
// clean file:line diagnostics, or in a site that says exactly what the files
// say; never another exception, and never slowly.
import path from 'node:path';
import { planSite } from '../../generator/build.ts';
import { DatasetError, formatProblems, type Problem } from '../../generator/dataset/diagnostics.ts';
import type { PlannedFiles } from '../../generator/pipeline/output-plan.ts';
import { loadRelease } from '../../generator/dataset/curated.ts';
import { releaseInfo } from '../support/release.ts';
import type { Expectation } from './corrupt.ts';
import { checkSite, compareRelease, referenceRelease, type Files, type ReadSite } from './oracle.ts';

export const FUZZ_BASE_URL = 'http://jaspar.test';
/** Seconds a case may take before it counts as a hang (a case takes a few ms). */
const SLOW_MS = 5_000;

export interface CaseResult {
  outcome: 'built' | 'rejected';
  ms: number;
  problems: Problem[];
  /** What the build would write (built cases). */
  outputs?: PlannedFiles;
}

const FORBIDDEN_IN_REPORT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Problems with the diagnostics themselves (each must be file:line, what, fix, on one line). */
export function diagnosticFaults(problems: Problem[], dir: string, files: Files): string[] {
  const out: string[] = [];
  if (problems.length === 0) out.push('a DatasetError without problems');
  for (const p of problems) {
    const rel = path.relative(dir, path.resolve(p.file)).split(path.sep).join('/');
    const content = files.get(rel);
    const lines = content instanceof Buffer ? content.toString('latin1').split('\n').length : 1;
    if (rel.startsWith('..') || path.isAbsolute(rel)) out.push(`problem names a file outside the release: ${p.file}`);
    if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1) out.push(`${rel}:${p.line}: line outside the file (${lines} lines)`);
    if (!p.message.trim() || !p.fix.trim()) out.push(`${rel}:${p.line}: empty message or fix`);
    if (FORBIDDEN_IN_REPORT.test(p.message + p.fix + p.file)) out.push(`${rel}:${p.line}: a control character in ${JSON.stringify(p)}`);
  }
  if (formatProblems(problems).split('\n').length !== problems.length) out.push('the report has more lines than problems');
  return out;
}

const relOf = (dir: string, p: Problem) => path.relative(dir, path.resolve(p.file)).split(path.sep).join('/');

/** Loads and plans the release folder dir (written from files) and checks everything; throws on a fault. */
export function runCase(dir: string, files: Files, expectation: Expectation, label: string): CaseResult {
  const started = performance.now();
  let error: unknown;
  let plan: ReturnType<typeof planSite>['plan'] | undefined;
  let release: ReturnType<typeof loadRelease> | undefined;
  try {
    release = loadRelease(dir, releaseInfo());
    plan = planSite({ dataDir: dir, outDir: path.join(dir, 'unused-out'), baseUrl: FUZZ_BASE_URL }).plan;
  } catch (e) {
    error = e;
  }
  const ms = performance.now() - started;
  const fail = (why: string) => {
    throw new Error(`${label}: ${why}`);
  };
  if (ms > SLOW_MS) fail(`took ${ms.toFixed(0)} ms`);
  if (error !== undefined) {
    if (!(error instanceof DatasetError)) fail(`an unhandled ${(error as Error)?.name}: ${(error as Error)?.stack ?? error}`);
    const problems = (error as DatasetError).problems;
    const faults = diagnosticFaults(problems, dir, files);
    if (faults.length) fail(`bad diagnostics:\n  ${faults.join('\n  ')}\n${formatProblems(problems)}`);
    if (expectation.outcome === 'accept') fail(`a valid release was refused:\n${formatProblems(problems)}`);
    if (expectation.file !== undefined && !problems.some((p) => relOf(dir, p) === expectation.file && (expectation.line === undefined || p.line === expectation.line))) {
      fail(`no problem on ${expectation.file}:${expectation.line ?? '*'}:\n${formatProblems(problems)}`);
    }
    return { outcome: 'rejected', ms, problems };
  }
  if (expectation.outcome === 'reject') fail(`the build accepted it (expected a problem on ${expectation.file}:${expectation.line ?? '*'})`);
  let ref;
  try {
    ref = referenceRelease(files);
  } catch (e) {
    fail(`the build accepted a release the oracle cannot read: ${(e as Error).message}`);
  }
  const differences = compareRelease(release!, ref!);
  const outputs = plan!.files;
  const read: ReadSite = (rel) => {
    const c = outputs.get(rel);
    return c === undefined ? undefined : c.toString();
  };
  differences.push(...checkSite(read, ref!, FUZZ_BASE_URL));
  if (differences.length) fail(`the site differs from the files (${differences.length}):\n  ${differences.slice(0, 10).join('\n  ')}`);
  return { outcome: 'built', ms, problems: [], outputs };
}
