// The request grid run through the two real engines (engines-grid.test.ts):
// a fixed sample of the oracle grid (grid.ts), every shape kind represented,
// plus the API URLs the oracle has no endpoint for (the API root, the index
// lists, releases, binding sites, the matrices of a collection by its folder
// URL, logos, files by path URL), which are judged against the handler's
// answer in process over the same folder (the pre-rendered files where one
// exists). Kept to about 150 requests an engine: `netlify dev` and `wrangler
// dev` take 20-100 ms a request on a loaded 2-core machine.
import { grid, type Answer, type GridRequest } from './grid.ts';

/** Every STEP-th request of the oracle grid (its shapes come in runs: each run is sampled). */
const STEP = 9;

/** API URLs outside the oracle's matrix endpoints. */
export const FILE_REQUESTS: GridRequest[] = [
  { target: '/api/v1/' },
  { target: '/api/v1' },
  { target: '/api/v1/?format=yaml' },
  { target: '/api/v1/', accept: 'text/html' },
  { target: '/api/v1/', accept: 'text/meme' },
  { target: '/api/v1/collections/' },
  { target: '/api/v1/collections/?format=json' },
  { target: '/api/v1/collections/?format=jsonp&callback=cb' },
  { target: '/api/v1/taxon/' },
  { target: '/api/v1/taxon/?page_size=4&page=last' },
  { target: '/api/v1/taxon/?search=plants' },
  { target: '/api/v1/species/?page=2' },
  { target: '/api/v1/species/?format=json&page=2' },
  { target: '/api/v1/species/?format=yaml&page=3&page_size=7' },
  { target: '/api/v1/species/?page=99' },
  { target: '/api/v1/species/?page_size=5000' },
  { target: '/api/v1/species/', accept: 'application/yaml' },
  { target: '/api/v1/releases/' },
  { target: '/api/v1/releases/?release=2020' },
  { target: '/api/v1/releases/2024/' },
  { target: '/api/v1/releases/10/?format=yaml' },
  { target: '/api/v1/releases/1999/' },
  { target: '/api/v1/sites/MA0014.2/' },
  { target: '/api/v1/sites/MA0014.2/?format=bed' },
  { target: '/api/v1/sites/MA0014.2/?format=meme' },
  { target: '/api/v1/collections/CORE/' },
  { target: '/api/v1/collections/UNVALIDATED/?format=jaspar&page=2' },
  { target: '/api/v1/taxon/plants/?page_size=3', accept: 'text/meme' },
  { target: '/api/v1/species/9606/?page=2' },
  { target: '/api/v1/collections/NOPE/' },
  { target: '/api/v1/nothing/here/' },
  { target: '/api/v1/species/', method: 'HEAD' },
  { target: '/api/v1/matrix/page/2/index.json' },
  { target: '/api/v1/openapi.json' },
  { target: '/static/logos/svg/MA0014.2.svg' },
  // The site's other release (JASPAR 2026 under /releases/2026/): release=2026, its path, what it lacks, a matrix new in 2026.
  { target: '/api/v1/matrix/?release=2026&format=json&page=2' },
  { target: '/api/v1/matrix/?release=2026&collection=CORE&version=latest&page_size=25' },
  { target: '/api/v1/matrix/MA0004.1/?release=2026&format=yaml' },
  { target: '/releases/2026/api/v1/matrix?format=json&page=3' },
  { target: '/releases/2026/api/v1/matrix/MA0004.1/' },
  { target: '/api/v1/matrix/?release=2026&collection=UNVALIDATED' },
  { target: '/api/v1/matrix/UN0001.1/?release=2026' },
  { target: '/api/v1/matrix/MA2593.1/?format=jaspar' },
  { target: '/api/v1/matrix/?release=2018' },
  { target: '/releases/2026/static/logos/svg/MA0004.1.svg' },
];

export function engineGrid(): { oracle: GridRequest[]; files: GridRequest[] } {
  return { oracle: grid().filter((_, i) => i % STEP === 0), files: FILE_REQUESTS };
}

/** The matrix and base ids the requests name (the Cloudflare view keeps their folders). */
export function idsOf(requests: readonly GridRequest[]): Set<string> {
  const ids = new Set<string>();
  for (const r of requests) for (const m of r.target.matchAll(/(?:MA|UN)[0-9]{4}(?:\.[0-9]+)?/g)) ids.add(m[0]);
  return ids;
}

const mediaType = (h: Headers) => (h.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

/** An engine's answer over HTTP, as askMirror gives the handler's in process. */
export async function askEngine(origin: string, r: GridRequest): Promise<Answer> {
  const response = await fetch(`${origin}${r.target}`, { method: r.method ?? 'GET', headers: r.accept ? { Accept: r.accept } : {}, redirect: 'manual' });
  return { status: response.status, type: mediaType(response.headers), body: await response.text(), length: response.headers.get('content-length') };
}

/** An answer without an oracle: the engine's against the handler's in process over the same files. */
export function sameAnswer(engine: Answer, expected: Answer, method = 'GET'): string | null {
  if (engine.status !== expected.status) return `status ${engine.status}, expected ${expected.status}`;
  if (engine.type !== expected.type) return `type ${engine.type}, expected ${expected.type}`;
  if (engine.body !== expected.body) return `body differs (${engine.body.length} characters, expected ${expected.body.length}): ${JSON.stringify(engine.body.slice(0, 120))}`;
  if (method === 'HEAD' && engine.length !== expected.length) return `HEAD length ${engine.length}, expected ${expected.length}`;
  return null;
}
