// Builds the full shared release once per test run, into a temporary folder,
// and hands its path to the suites (inject('siteDir')). The build is the real
// CLI, as a user runs it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PROJECT_ROOT, SITE_BASE_URL, dataDir } from './support/paths.ts';

export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-site-'));
  const siteDir = path.join(root, 'public');
  const started = performance.now();
  execFileSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), '--data', dataDir(), '--out', siteDir, '--base-url', SITE_BASE_URL], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.stdout.write(`global setup: full release built in ${((performance.now() - started) / 1000).toFixed(1)} s → ${siteDir}\n`);
  project.provide('siteDir', siteDir);
  return () => rmSync(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
  }
}
