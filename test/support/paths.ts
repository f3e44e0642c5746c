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

export function dataDir(): string {
  return path.resolve(process.env.JASPAR_DATA ?? path.join(PROJECT_ROOT, 'data/jaspar-2024'));
}
