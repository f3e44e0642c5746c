// Builds the site the "site" suites read, once per test run, into a temporary
// folder, and hands its path and its release folders to the suites
// (inject('siteDir'), inject('siteData')). The build is the real CLI, as a
// user runs it.
//
// Which site depends on the project (vitest.config.ts):
// - "site" (`npm test`): the fixture site, about 100 matrices of each shipped
//   release cut from data/ (test/support/fixture-site.ts), built in seconds;
// - "full" (`npm run test:full`, vitest.full.config.ts): the full site of
//   both shipped releases (or JASPAR_DATA's), 285,000 files, 2-3 minutes.
// Suites read their expected values from the release folders the site was
// built from (test/support/paths.ts dataDir(), siteDataDirs()), so the same
// suite runs on either.
//
// Vitest starts every project's global setup before any test runs, so the
// build is started here in the background and the unit tests run meanwhile;
// every file of the project first waits for it (test/support/site-ready.ts),
// and fails if it failed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeFixtureSite } from './support/fixture-site.ts';
import { PROJECT_ROOT, SITE_BASE_URL, siteDataDirs } from './support/paths.ts';

export default function setup(project: TestProject) {
  const full = project.name === 'full';
  const root = mkdtempSync(path.join(os.tmpdir(), full ? 'jaspar-site-' : 'jaspar-fixture-site-'));
  // Readable by others: Apache started as root serves as "nobody" (test/hosts/).
  chmodSync(root, 0o755);
  const siteDir = path.join(root, 'public');
  const status = path.join(root, 'build-status.json');
  const started = performance.now();
  const dataDirs = full ? siteDataDirs() : makeFixtureSite(path.join(root, 'data')).dataDirs;
  const what = full ? 'full site' : 'fixture site';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), ...dataDirs.flatMap((d) => ['--data', d]), '--out', siteDir, '--base-url', SITE_BASE_URL], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const done = (result: { code: number | null; error?: string }) => {
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`global setup: ${what} built in ${seconds.toFixed(1)} s (exit ${result.code}) → ${siteDir}\n`);
    writeFileSync(status, JSON.stringify({ ...result, seconds, what }));
  };
  child.once('error', (error) => done({ code: null, error: error.message }));
  child.once('exit', (code, signal) => done({ code, ...(signal ? { error: `killed by ${signal}` } : {}) }));
  project.provide('siteDir', siteDir);
  project.provide('siteData', dataDirs);
  project.provide('siteBuildStatus', status);
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await fs.rm(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    /** The release folders the site is built from, oldest (the default release) first. */
    siteData: string[];
    /** A JSON file written when the build ends: { code, error?, seconds, what }. */
    siteBuildStatus: string;
  }
}
