// Setup file of the projects with a built site (vitest.config.ts "site",
// vitest.full.config.ts "full"): before a test file runs, the build started by
// test/global-setup.ts has finished, or the file fails with the build's own
// error. The suite then reads its expected values from the release folders
// that site was built from: JASPAR_DATA names them (test/support/paths.ts),
// the fixture's under `npm test`, the shipped ones under `npm run test:full`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { SHARED_ENV, type SharedServers } from './shared-servers.ts';

process.env.JASPAR_DATA = inject('siteData').join(path.delimiter);

const status = inject('siteBuildStatus');
const LIMIT_MS = 30 * 60_000;
const started = Date.now();
while (!existsSync(status)) {
  if (Date.now() - started > LIMIT_MS) throw new Error(`the site build (test/global-setup.ts) did not finish within ${LIMIT_MS / 60_000} minutes`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const result = JSON.parse(readFileSync(status, 'utf8')) as { code: number | null; error?: string; what: string; shared: SharedServers };
if (result.code !== 0) throw new Error(`the ${result.what} build (test/global-setup.ts) failed: exit ${result.code}${result.error ? `, ${result.error}` : ''} (its output is above)`);
// The servers started once for every suite over that site (test/support/shared-servers.ts).
process.env[SHARED_ENV] = JSON.stringify(result.shared);
