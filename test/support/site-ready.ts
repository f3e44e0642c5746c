// Setup file of the "site" project (vitest.config.ts): before a test file
// runs, the full build started by test/global-setup.ts has finished, or the
// file fails with the build's own error.
import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';

const status = inject('siteBuildStatus');
const LIMIT_MS = 30 * 60_000;
const started = Date.now();
while (!existsSync(status)) {
  if (Date.now() - started > LIMIT_MS) throw new Error(`the full build (test/global-setup.ts) did not finish within ${LIMIT_MS / 60_000} minutes`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const result = JSON.parse(readFileSync(status, 'utf8')) as { code: number | null; error?: string };
if (result.code !== 0) throw new Error(`the full build (test/global-setup.ts) failed: exit ${result.code}${result.error ? `, ${result.error}` : ''} (its output is above)`);
