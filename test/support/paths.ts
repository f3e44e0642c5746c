// Where the tests find the project, the shared release and the golden files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Real JASPAR outputs and the 2018 release's official files, kept in the repository (test/golden/README.md). */
export const GOLDEN_ROOT = path.join(PROJECT_ROOT, 'test/golden');
export const GOLDEN = path.join(GOLDEN_ROOT, 'formats');
export const JASPAR_2018 = path.join(GOLDEN_ROOT, 'jaspar-2018');
/** The base URL the test site is built with; servers under test map it to their own origin. */
export const SITE_BASE_URL = 'http://jaspar.test';

/** The releases the full site is built from: the shipped ones (JASPAR 2024, the default, and 2026 under /releases/2026/), or JASPAR_DATA's. */
export function siteDataDirs(): string[] {
  const named = process.env.JASPAR_DATA?.split(path.delimiter).filter((d) => d !== '');
  return (named ?? ['data/jaspar-2024', 'data/jaspar-2026'].map((d) => path.join(PROJECT_ROOT, d))).map((d) => path.resolve(d));
}

/** The default release's folder (the first of siteDataDirs()): JASPAR 2024, or the fixture's under `npm test`'s site suites (test/support/site-ready.ts). */
export function dataDir(): string {
  return siteDataDirs()[0];
}

/** The folder of a release of the site by year, or undefined when the site does not hold it. */
export function siteDataDir(year: number): string | undefined {
  return siteDataDirs().find((d) => path.basename(d) === `jaspar-${year}`);
}

/** True when the suites read the fixture site (`npm test`), not the full release (`npm run test:full`). */
export function onFixture(): boolean {
  return siteDataDirs().some((d) => !d.startsWith(path.join(PROJECT_ROOT, 'data') + path.sep));
}
