// Measures the edge handler in process (no host engine): cold start (the
// indexes read and parsed), latency per kind of request (p50/p99), memory
// held by the indexes, and the handler's bundle size (esbuild, browser
// platform, as Deno and workerd take it). The site's files are read from the
// folder (test/edge/folder-site.ts), so "static file" is a file read and
// copy. Prints the figures; never fails on them.
//   node --expose-gc --import tsx scripts/edge-bench.ts --site DIR [--runs 300]
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createHandler } from '../generator/edge/handler.ts';
import { folderSite } from '../test/edge/folder-site.ts';
import { PROJECT_ROOT } from '../test/support/paths.ts';

const { values } = parseArgs({ options: { site: { type: 'string' }, runs: { type: 'string', default: '300' }, base: { type: 'string', default: 'http://jaspar.test' } } });
if (!values.site) throw new Error('--site DIR (a built site)');
const site = folderSite(path.resolve(values.site));
const runs = Number(values.runs);
const gc = (globalThis as { gc?: () => void }).gc;
/** The handler measured; a new one starts cold (its indexes not read). */
let handle = createHandler();

const ask = async (target: string, accept?: string) => {
  const response = await handle(new Request(`${values.base}${target}`, { headers: accept ? { Accept: accept } : {} }), site);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target}: ${response.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
  return body.byteLength;
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x: number) => x.toFixed(2);

// Cold start: a fresh instance's first request reads and parses the index;
// its first text-format request also reads the counts.
const cold: number[] = [];
const coldText: number[] = [];
for (let i = 0; i < 15; i++) {
  handle = createHandler();
  let t = performance.now();
  await ask('/api/v1/matrix/?search=sox&page_size=20');
  cold.push(performance.now() - t);
  t = performance.now();
  await ask('/api/v1/matrix/?search=sox&page_size=20&format=jaspar');
  coldText.push(performance.now() - t);
}
cold.sort((a, b) => a - b);
coldText.sort((a, b) => a - b);
console.log(`cold start: first request (index.json read + parsed) p50 ${ms(quantile(cold, 0.5))} ms, max ${ms(cold[cold.length - 1])} ms; first text format (matrices.json) p50 ${ms(quantile(coldText, 0.5))} ms`);

// Memory the indexes hold: heap after loading both, minus heap without them.
if (gc) {
  handle = createHandler();
  gc();
  const before = process.memoryUsage().heapUsed;
  await ask('/api/v1/matrix/?search=sox&format=jaspar');
  gc();
  const after = process.memoryUsage().heapUsed;
  console.log(`memory: indexes ${((after - before) / 1e6).toFixed(1)} MB of heap; process RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
} else {
  console.log('memory: run with node --expose-gc for the heap the indexes hold');
}

const KINDS: [string, string, string?][] = [
  ['static file (pre-rendered list page, its own query URL)', '/api/v1/matrix?format=json&page=3'],
  ['static file (matrix, Accept: text/meme)', '/api/v1/matrix/MA0139.1/', 'text/meme'],
  ['search (search=sox, 20 a page)', '/api/v1/matrix/?search=sox&page_size=20'],
  ['search, case-insensitive name (name=ctcf)', '/api/v1/matrix/?name=ctcf'],
  ['odd page size (600, page 3)', '/api/v1/matrix/?page_size=600&page=3'],
  ['Accept: text/jaspar (plants, latest, 50 a page)', '/api/v1/matrix/?tax_group=plants&version=latest&page_size=50', 'text/jaspar'],
  ['order=-version,name (100 a page)', '/api/v1/matrix/?order=-version,name&page_size=100'],
  ['filters (collection=core&tax_id=9606,10090&class=zinc)', '/api/v1/matrix/?collection=core&tax_id=9606,10090&class=zinc'],
  ['jaspar, 1000 a page', '/api/v1/matrix/?format=jaspar&page_size=1000&page=2&search=a'],
  ['transfac, 1000 a page', '/api/v1/matrix/?format=transfac&page_size=1000&page=2&search=a'],
  ['bed (CORE vertebrates, 100 a page)', '/api/v1/matrix/?format=bed&collection=core&tax_group=vertebrates&page_size=100'],
];
console.log(`latency in process (${runs} requests each, after 20 warm-up), ms:`);
for (const [label, target, accept] of KINDS) {
  for (let i = 0; i < 20; i++) await ask(target, accept);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    bytes = await ask(target, accept);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(58)} p50 ${ms(quantile(times, 0.5)).padStart(7)}  p99 ${ms(quantile(times, 0.99)).padStart(7)}  (${bytes} bytes)`);
}

// The handler's bundle (what a host bundles with it: renderers, js-yaml), minified.
try {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(PROJECT_ROOT, 'generator/edge/handler.ts')],
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  console.log(`bundle: ${(code.byteLength / 1024).toFixed(1)} KiB minified, ${(gzipSync(code).byteLength / 1024).toFixed(1)} KiB gzip (Cloudflare Workers: 3 MiB gzip free, 10 MiB paid; Netlify Edge Functions: 20 MB compressed)`);
} catch (error) {
  console.log(`bundle: not measured (${(error as Error).message})`);
}
