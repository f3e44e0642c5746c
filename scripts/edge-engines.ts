// npx tsx scripts/edge-engines.ts --site DIR [--handler MODULE] [--requests 300] [--engine netlify|cloudflare]
//
// Measures the edge handler on the two real engines, offline
// (test/support/edge-servers.ts starts them as the tests do), and prints:
//   bundle size of each host's entry against the host's limit
//     (Netlify: `deno bundle`, gzip; Cloudflare: `wrangler deploy --dry-run`,
//     its own "Total Upload … / gzip" figure);
//   per engine: start-up (spawn to the first answer through the handler),
//   the first handler answer after start-up (the handler's cold start:
//   indexes read once per instance), p50/p99 of a static file through the
//   engine and of each kind of handler answer (sequential requests), and the
//   resident memory of the engine's processes after the requests.
// --handler runs another module exporting handle() (the tests' double,
// test/support/edge-double.ts) instead of generator/edge/handler.ts; the
// handler answers measured then are the double's. The site is a built site
// (npm run build -- --out DIR); Cloudflare gets it within its asset limits
// (cloudflareSiteView). Everything temporary is removed at the end.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DENO_BIN_DIR, PROJECT_ROOT, wranglerDevEnv } from '../generator/edge/hosts/local-engines.ts';
import { cloudflareSiteView, startEdgeServer, type Engine } from '../test/support/edge-servers.ts';

const { values } = parseArgs({
  options: {
    site: { type: 'string' },
    handler: { type: 'string' },
    requests: { type: 'string', default: '300' },
    engine: { type: 'string', multiple: true },
  },
});
if (!values.site) throw new Error('--site DIR: a built site');
const siteDir = path.resolve(values.site);
const requests = Number(values.requests);
const handler = values.handler ? path.resolve(values.handler) : undefined;
const engines = (values.engine ?? ['netlify', 'cloudflare']) as Engine[];

/** Host limits on the deployed code (docs.netlify.com/build/edge-functions/limits; developers.cloudflare.com/workers/platform/limits). */
const LIMITS = { netlify: 20 * 1024 * 1024, cloudflareFree: 3 * 1024 * 1024, cloudflarePaid: 10 * 1024 * 1024 };

const STATIC = '/api/v1/matrix/MA0004.1/index.json';
interface Kind {
  name: string;
  path: string;
  accept?: string;
}
const KINDS: Kind[] = handler
  ? [{ name: 'handler answer (double: ping)', path: '/api/v1/matrix/MA0004.1/?edge=ping' }]
  : [
      { name: 'search=sox', path: '/api/v1/matrix/?search=sox' },
      { name: 'page_size=20, page 3', path: '/api/v1/matrix/?page_size=20&page=3' },
      { name: 'Accept: text/meme', path: '/api/v1/matrix/MA0004.1/', accept: 'text/meme' },
      { name: 'index list, page_size=7 (rendered)', path: '/api/v1/species/?page_size=7&page=2' },
      { name: 'index list, pre-rendered page (its file)', path: '/api/v1/species/?format=json&page=3' },
    ];
/** Answered through the handler without reading the indexes (a file by its path), so that the first request measured finds the handler cold. */
const READY_PATH = '/api/v1/openapi.json';

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function entryFor(dir: string, adapterModule: string, adapter: string): string {
  const entry = path.join(dir, `${adapter}.ts`);
  // The product's handler is made by createHandler(); the double exports handle().
  const handlerImport = handler === undefined
    ? `import { createHandler } from ${JSON.stringify(path.join(PROJECT_ROOT, 'generator/edge/handler.ts'))};\nconst handle = createHandler();`
    : `import { handle } from ${JSON.stringify(handler)};`;
  writeFileSync(entry, `${handlerImport}\nimport { ${adapter} } from ${JSON.stringify(path.join(PROJECT_ROOT, adapterModule))};\nexport default ${adapter}(handle);\n`);
  return entry;
}

function filesBytes(dir: string): { raw: number; gzip: number } {
  let raw = 0;
  let gzip = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (!statSync(file).isFile() || file.endsWith('.map')) continue;
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

function bundleSizes(): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-edge-bundle-'));
  try {
    // Netlify bundles the function's module graph with Deno; deno bundle gives the same code in one file.
    const netlifyOut = path.join(dir, 'netlify');
    // From the project folder: Deno resolves the renderers' npm imports (js-yaml) through its package.json and node_modules.
    execFileSync(path.join(DENO_BIN_DIR, 'deno'), ['bundle', '--quiet', '-o', path.join(netlifyOut, 'jaspar.js'), entryFor(dir, 'generator/edge/hosts/netlify.ts', 'netlifyEdgeFunction')], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const netlify = filesBytes(netlifyOut);
    console.log(`bundle, Netlify edge function: ${kib(netlify.raw)}, gzip ${kib(netlify.gzip)} (limit 20 MB compressed: ${((100 * netlify.gzip) / LIMITS.netlify).toFixed(2)} %)`);
    const cloudflareOut = path.join(dir, 'cloudflare');
    const printed = execFileSync(path.join(PROJECT_ROOT, 'node_modules/.bin/wrangler'), [
      'deploy', '--dry-run', '--outdir', cloudflareOut, '--name', 'jaspar-mirror', '--compatibility-date', '2026-04-26',
      entryFor(dir, 'generator/edge/hosts/cloudflare.ts', 'cloudflareWorker'),
    ], { cwd: dir, env: wranglerDevEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const upload = /Total Upload: ([^\n]+)/.exec(printed)?.[1] ?? '(not printed)';
    const cloudflare = filesBytes(cloudflareOut);
    console.log(`bundle, Cloudflare Worker: wrangler "Total Upload: ${upload}"; files ${kib(cloudflare.raw)}, gzip ${kib(cloudflare.gzip)} (limits 3 MB free: ${((100 * cloudflare.gzip) / LIMITS.cloudflareFree).toFixed(2)} %, 10 MB paid: ${((100 * cloudflare.gzip) / LIMITS.cloudflarePaid).toFixed(2)} %)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timed(url: string, accept?: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: accept ? { accept } : {} });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

async function series(url: string, accept?: string): Promise<string> {
  const times: number[] = [];
  const statuses = new Set<number>();
  for (let i = 0; i < requests; i++) {
    const { ms, status } = await timed(url, accept);
    times.push(ms);
    statuses.add(status);
  }
  times.sort((a, b) => a - b);
  return `p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms (${requests} requests, status ${[...statuses].join('/')})`;
}

async function measure(engine: Engine): Promise<void> {
  let view: string | undefined;
  let served = siteDir;
  if (engine === 'cloudflare') {
    const made = await cloudflareSiteView(siteDir, new Set(['MA0004.1', 'MA0004']));
    view = made.dir;
    served = made.dir;
    console.log(`${engine}: site view of ${made.files} files (Cloudflare: 100,000 at most, 20,000 on the free plan)`);
  }
  const server = await startEdgeServer(engine, served, { handler, ...(handler ? {} : { readyPath: READY_PATH }) });
  try {
    console.log(`${engine}: start-up ${(server.startupMs / 1000).toFixed(1)} s (spawn to the first answer through the handler)`);
    for (const [i, kind] of KINDS.entries()) {
      const first = await timed(`${server.origin}${kind.path}`, kind.accept);
      if (i === 0) console.log(`${engine}: first handler answer after start-up (cold) ${first.ms.toFixed(1)} ms, status ${first.status}`);
    }
    console.log(`${engine}: static file ${STATIC}: ${await series(`${server.origin}${STATIC}`)}`);
    for (const kind of KINDS) console.log(`${engine}: ${kind.name}: ${await series(`${server.origin}${kind.path}`, kind.accept)}`);
    const memory = server.memory();
    const total = memory.reduce((sum, p) => sum + p.rssKiB, 0);
    console.log(`${engine}: RSS ${(total / 1024).toFixed(0)} MiB in all: ${memory.map((p) => `${p.command} ${(p.rssKiB / 1024).toFixed(0)} MiB`).join(', ')}`);
  } finally {
    await server.stop();
    if (view) rmSync(view, { recursive: true, force: true });
  }
}

bundleSizes();
for (const engine of engines) await measure(engine);
