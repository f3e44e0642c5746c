// Where the tests find the project, the shared release and the golden files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = path.resolve(PROJECT_ROOT, '../shared');
export const GOLDEN = path.join(SHARED, 'golden/formats');
/** The base URL the test site is built with; servers under test map it to their own origin. */
export const SITE_BASE_URL = 'http://jaspar.test';

export function dataDir(): string {
  return path.resolve(process.env.JASPAR_DATA ?? path.join(SHARED, 'jaspar/2024'));
}
