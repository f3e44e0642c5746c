// Load test of the built site (a script, not a CI test). By default
// (--server node) the Node server under 100,000 mixed requests, then a file
// and a search beside nginx: scripts/load-node.ts. Otherwise autocannon against
// the site served by `http-server` (path URLs, as any static server answers
// them) and by Netlify's engine, `netlify dev --offline` (the real service's
// query URLs, answered through the generated _redirects), both on loopback.
// A fixed, seeded mix of list pages, matrix details (several formats) and
// logos; every response's status and body are checked against the file that
// should answer it (against netlify dev: see precisePass). Prints requests/s,
// latency p50/p99, errors, and the bodies checked; exits non-zero on any
// error, timeout, non-2xx status or mismatch.
//
//   npm run load -- [--site DIR] [--server node|both|http-server|netlify]
//                   [--connections 50] [--duration 30] [--urls 400] [--timeout 120] [--amount 100000]
//
// The site must be built first (npm run build -- --out DIR); the base URL it
// was built with does not matter (bodies are compared with the files).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { fetchAll, startHttpServer, startNetlifyDev, type RunningServer } from '../test/support/servers.ts';
import { runNodeLoad } from './load-node.ts';

/** The part of autocannon 8 used here (it ships no types). */
interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  timeout: number;
  requests: { method: 'GET'; path: string; onResponse: (status: number, body: string) => void }[];
}
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'public' },
    server: { type: 'string', default: 'node' },
    amount: { type: 'string', default: '100000' },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '30' },
    urls: { type: 'string', default: '400' },
    timeout: { type: 'string', default: '120' },
  },
});
const site = path.resolve(values.site!);
const connections = Number(values.connections);
const duration = Number(values.duration);
const urlCount = Number(values.urls);
const timeout = Number(values.timeout);
const servers = values.server === 'both' ? ['http-server', 'netlify'] : [values.server!];
if (!existsSync(path.join(site, 'api/v1/matrix/page/1/index.json'))) {
  process.stderr.write(`load-test: ${site} is not a built site; build it first: npm run build -- --out ${values.site}\n`);
  process.exit(2);
}
if (values.server === 'node') {
  const amount = Number(values.amount);
  if (![connections, duration, amount, timeout].every((n) => Number.isFinite(n) && n > 0)) {
    process.stderr.write('load-test: --connections, --duration, --amount and --timeout are positive numbers\n');
    process.exit(2);
  }
  process.exit(await runNodeLoad({ site, connections, amount, duration, timeout }));
}
if (servers.some((s) => s !== 'http-server' && s !== 'netlify') || ![connections, duration, urlCount, timeout].every((n) => Number.isFinite(n) && n > 0)) {
  process.stderr.write('load-test: --server is node, both, http-server or netlify; --connections, --duration, --urls and --timeout are positive numbers\n');
  process.exit(2);
}

// ------------------------------------------------------------ the mix

/** Mulberry32: a fixed seed, so that every run asks for the same URLs. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES: Record<string, string> = {
  api: 'index.html', json: 'index.json', jsonp: 'index.js', yaml: 'index.yaml',
  jaspar: 'index.jaspar.txt', meme: 'index.meme.txt', transfac: 'index.transfac.txt', pfm: 'index.pfm.txt',
};
const FORMATS = Object.keys(FILES);

interface Target {
  kind: 'list' | 'detail' | 'logo';
  /** What http-server is asked (a path URL). */
  pathUrl: string;
  /** What Netlify is asked (the real service's query URL). */
  queryUrl: string;
  /** The file that answers both, relative to the site. */
  file: string;
}

const matrixDir = path.join(site, 'api/v1/matrix');
const pages = readdirSync(path.join(matrixDir, 'page')).filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b);
const ids = readdirSync(matrixDir).filter((n) => /^[A-Z]{2}\d{4}\.\d+$/.test(n)).sort();
const next = random(20240611);
const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];

const targets: Target[] = [];
for (let i = 0; i < urlCount; i++) {
  const roll = next();
  if (roll < 0.4) {
    const page = pick(pages);
    const format = pick(FORMATS);
    const dir = `/api/v1/matrix/page/${page}/`;
    targets.push({ kind: 'list', pathUrl: format === 'api' ? dir : `${dir}${FILES[format]}`, queryUrl: `/api/v1/matrix?format=${format}&page=${page}`, file: `${dir}${FILES[format]}` });
  } else if (roll < 0.8) {
    const id = pick(ids);
    const format = pick(FORMATS);
    const dir = `/api/v1/matrix/${id}/`;
    targets.push({ kind: 'detail', pathUrl: format === 'api' ? dir : `${dir}${FILES[format]}`, queryUrl: `${dir}?format=${format}`, file: `${dir}${FILES[format]}` });
  } else {
    const logo = `/static/logos/svg/${pick(ids)}.svg`;
    targets.push({ kind: 'logo', pathUrl: logo, queryUrl: logo, file: logo });
  }
}
const bodies = new Map(targets.map((t) => [t.file, readFileSync(path.join(site, t.file), 'utf8')]));
const anyBody = new Set(bodies.values());

/**
 * `netlify dev` closes the connection after every response (it answers
 * "connection: close" to keep-alive requests), and autocannon then writes the
 * next request into the closing socket and opens a new connection with the
 * one after: from there on it hands responses to the wrong request entries
 * (checked with a raw socket and autocannon itself). So against netlify dev
 * every URL is first checked alone, in order, and under load each body must be
 * byte for byte one of the files of the mix. Against http-server, which keeps
 * connections, each body is checked against its own file.
 */
async function precisePass(server: RunningServer, urlOf: (t: Target) => string): Promise<{ checked: number; mismatched: string[] }> {
  const mismatched: string[] = [];
  await fetchAll(targets, 4, async (t) => {
    const r = await fetch(`${server.origin}${urlOf(t)}`, { signal: AbortSignal.timeout(timeout * 1000) });
    const body = await r.text();
    if (r.status !== 200 || body !== bodies.get(t.file)) mismatched.push(`${urlOf(t)}: ${r.status}, ${body.length} characters where ${t.file} has ${bodies.get(t.file)!.length}`);
  });
  return { checked: targets.length, mismatched };
}

// ------------------------------------------------------------ one run

interface Figures {
  server: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  checked: number;
  mismatched: number;
  firstMismatch?: string;
  /** What each body under load was compared with. */
  bodyCheck?: string;
}

async function load(name: string, server: RunningServer, urlOf: (t: Target) => string, exact: boolean): Promise<Figures> {
  let checked = 0;
  let mismatched = 0;
  let firstMismatch: string | undefined;
  const requests = targets.map((t) => ({
    method: 'GET' as const,
    path: urlOf(t),
    onResponse: (status: number, body: string) => {
      checked++;
      if (status !== 200 || (exact ? body !== bodies.get(t.file) : !anyBody.has(body))) {
        mismatched++;
        if (firstMismatch === undefined) {
          const want = bodies.get(t.file)!;
          let at = 0;
          while (at < body.length && body[at] === want[at]) at++;
          firstMismatch = `${urlOf(t)}: status ${status}, ${body.length} characters where ${t.file} has ${want.length}; from character ${at}: ${JSON.stringify(body.slice(at, at + 60))} where the file has ${JSON.stringify(want.slice(at, at + 60))}`;
        }
      }
    },
  }));
  // A short warm-up: netlify dev compiles its rules on the first requests.
  await autocannon({ url: server.origin, connections: 4, amount: 40, requests, timeout });
  checked = 0;
  mismatched = 0;
  firstMismatch = undefined;
  const result = await autocannon({ url: server.origin, connections, duration, requests, timeout });
  return {
    server: name,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    checked,
    mismatched,
    firstMismatch,
  };
}

const mix = ['list', 'detail', 'logo'].map((k) => `${targets.filter((t) => t.kind === k).length} ${k}`).join(', ');
process.stdout.write(`load-test: ${site}: ${targets.length} URLs (${mix}; formats ${FORMATS.join(' ')}), ${connections} connections, ${duration} s per server\n`);
const results: Figures[] = [];
let preciseFailures = 0;
for (const name of servers) {
  process.stdout.write(`${name}: starting…\n`);
  const server = name === 'netlify' ? await startNetlifyDev(site) : await startHttpServer(site);
  try {
    const urlOf = name === 'netlify' ? (t: Target) => t.queryUrl : (t: Target) => t.pathUrl;
    const exact = name !== 'netlify';
    if (!exact) {
      const pass = await precisePass(server, urlOf);
      process.stdout.write(`${name}: every URL alone: ${pass.checked} checked against its own file, ${pass.mismatched.length} mismatched${pass.mismatched.length ? ` (first: ${pass.mismatched[0]})` : ''}\n`);
      if (pass.mismatched.length) preciseFailures += pass.mismatched.length;
    }
    const r = await load(name, server, urlOf, exact);
    r.bodyCheck = exact ? 'its own file' : 'a file of the mix';
    results.push(r);
    process.stdout.write(`${name}: ${r.requests} requests, ${r.rps.toFixed(1)} req/s, latency p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors} (timeouts ${r.timeouts}), non-2xx ${r.non2xx}, bodies checked ${r.checked}, mismatched ${r.mismatched}${r.firstMismatch ? ` (first: ${r.firstMismatch})` : ''}\n`);
  } finally {
    await server.stop();
  }
}

process.stdout.write('\n| server | requests | req/s | p50 ms | p99 ms | errors | non-2xx | bodies checked | against | mismatched |\n|---|---|---|---|---|---|---|---|---|---|\n');
for (const r of results) process.stdout.write(`| ${r.server} | ${r.requests} | ${r.rps.toFixed(1)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.checked} | ${r.bodyCheck} | ${r.mismatched} |\n`);
const failed = preciseFailures > 0 || results.some((r) => r.errors > 0 || r.timeouts > 0 || r.non2xx > 0 || r.mismatched > 0 || r.checked === 0);
process.exit(failed ? 1 : 0);
