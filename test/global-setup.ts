// Builds the full site (both shipped releases) once per test run, into a temporary folder,
// and hands its path to the suites (inject('siteDir')). The build is the real
// CLI, as a user runs it.
//
// Vitest starts every project's global setup before any test runs, so the
// build is started here in the background and the unit tests (vitest.config.ts,
// project "unit") run meanwhile; every file of the "site" project first waits
// for it (test/support/site-ready.ts), and fails if it failed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT, SITE_BASE_URL, siteDataDirs } from './support/paths.ts';

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-site-'));
  // Readable by others: Apache started as root serves as "nobody" (test/hosts/).
  chmodSync(root, 0o755);
  const siteDir = path.join(root, 'public');
  const status = path.join(root, 'build-status.json');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), ...siteDataDirs().flatMap((d) => ['--data', d]), '--out', siteDir, '--base-url', SITE_BASE_URL], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const done = (result: { code: number | null; error?: string }) => {
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`global setup: full release built in ${seconds.toFixed(1)} s (exit ${result.code}) → ${siteDir}\n`);
    writeFileSync(status, JSON.stringify({ ...result, seconds }));
  };
  child.once('error', (error) => done({ code: null, error: error.message }));
  child.once('exit', (code, signal) => done({ code, ...(signal ? { error: `killed by ${signal}` } : {}) }));
  project.provide('siteDir', siteDir);
  project.provide('siteBuildStatus', status);
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    /** A JSON file written when the build ends: { code, error?, seconds }. */
    siteBuildStatus: string;
  }
}
