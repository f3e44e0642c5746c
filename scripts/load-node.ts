// The Node server under load (issue 19; run by scripts/load-test.ts, the
// default of `npm run load`): a script that prints figures, not a test.
//
// 1. A fixed, seeded mix of the whole API (files by their query URLs, with
//    the body compared byte for byte with the file; search=; page sizes that
//    are not pre-rendered; formats by Accept) sent `--amount` times (100,000)
//    at `--connections` (50) to `node serve.mjs` on loopback; every answer
//    must be a 200 (and the file's bytes where a file answers). The server's
//    RSS is sampled through the run: after warm-up (the first quarter) it must
//    not grow by more than GROWTH.
// 2. Requests/s and latency p50/p99 for a file and for a search alone
//    (`--duration` s each), beside nginx with the site's own configuration
//    for the same file URLs (nginx answers search= with a 501: shown, not
//    timed as an answer).
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startSiteServer, type RunningServer } from '../test/support/servers.ts';
import { PAGE_SIZES } from '../generator/routes/urls.ts';

interface Request_ {
  method: 'GET';
  path: string;
  headers?: Record<string, string>;
  onResponse?: (status: number, body: string) => void;
}
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string; connections: number; amount?: number; duration?: number; timeout: number; requests: Request_[];
}) => Promise<AutocannonResult>;

/** RSS may grow this much from the end of warm-up to the end of the run (allocator noise, caches filling). */
const GROWTH = 1.25;

export interface NodeLoadOptions {
  site: string;
  connections: number;
  amount: number;
  duration: number;
  timeout: number;
}

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

interface Mixed {
  kind: 'file' | 'search' | 'page-size' | 'accept';
  path: string;
  headers?: Record<string, string>;
  file?: string;
}

function mix(site: string, count: number): Mixed[] {
  const next = random(19_2026);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const matrixDir = path.join(site, 'api/v1/matrix');
  const ids = readdirSync(matrixDir).filter((n) => /^[A-Z]{2}\d{4}\.\d+$/.test(n)).sort();
  const pages = readdirSync(path.join(matrixDir, 'page')).filter((n) => /^\d+$/.test(n)).map(Number).filter((n) => n >= 3).sort((a, b) => a - b);
  const names = [...new Set(ids.map((id) => (JSON.parse(readFileSync(path.join(matrixDir, id, 'index.json'), 'utf8')) as { name: string }).name))];
  const files: Record<string, string> = { json: 'index.json', jaspar: 'index.jaspar.txt', meme: 'index.meme.txt', transfac: 'index.transfac.txt', pfm: 'index.pfm.txt', yaml: 'index.yaml' };
  const accepts: Record<string, string> = { 'text/meme': 'meme', 'text/jaspar': 'jaspar', 'application/yaml': 'yaml', 'text/pfm': 'pfm', 'text/transfac': 'transfac' };
  const out: Mixed[] = [];
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.4) {
      if (next() < 0.5) {
        const id = pick(ids);
        const format = pick(Object.keys(files));
        out.push({ kind: 'file', path: `/api/v1/matrix/${id}/?format=${format}`, file: `api/v1/matrix/${id}/${files[format]}` });
      } else {
        const page = pick(pages);
        // The URL the static files' links use (no slash before the query): the handler answers it with the file.
        out.push({ kind: 'file', path: `/api/v1/matrix?format=json&page=${page}`, file: `api/v1/matrix/page/${page}/index.json` });
      }
    } else if (roll < 0.65) {
      const name = pick(names);
      const term = name.slice(0, 2 + Math.floor(next() * 3));
      out.push({ kind: 'search', path: `/api/v1/matrix/?search=${encodeURIComponent(term)}&format=json` });
    } else if (roll < 0.85) {
      let size: number;
      do size = 2 + Math.floor(next() * 300);
      while ((PAGE_SIZES as readonly number[]).includes(size));
      out.push({ kind: 'page-size', path: `/api/v1/matrix/?page_size=${size}&page=${1 + Math.floor(next() * 3)}` });
    } else {
      const [accept, format] = pick(Object.entries(accepts));
      const id = pick(ids);
      out.push({ kind: 'accept', path: `/api/v1/matrix/${id}/`, headers: { accept }, file: `api/v1/matrix/${id}/${files[format]}` });
    }
  }
  return out;
}

export async function runNodeLoad(o: NodeLoadOptions): Promise<number> {
  const targets = mix(o.site, 2000);
  const bodies = new Map(targets.filter((t) => t.file).map((t) => [t.file!, readFileSync(path.join(o.site, t.file!), 'utf8')]));
  const kinds = ['file', 'search', 'page-size', 'accept'].map((k) => `${targets.filter((t) => t.kind === k).length} ${k}`).join(', ');
  process.stdout.write(`load-test: ${o.site}: ${targets.length} URLs (${kinds}), ${o.amount} requests at ${o.connections} connections against the Node server (serve.mjs)\n`);

  let failures = 0;
  const node = await startSiteServer('node', o.site);
  try {
    if (node.pid === undefined) throw new Error('no pid for the Node server');
    // 1. The mix, with every answer checked, and the server's memory sampled.
    let answered = 0;
    let wrong = 0;
    let firstWrong: string | undefined;
    const requests: Request_[] = targets.map((t) => ({
      method: 'GET',
      path: t.path,
      ...(t.headers ? { headers: t.headers } : {}),
      onResponse: (status: number, body: string) => {
        answered++;
        const ok = status === 200 && (t.file === undefined ? body.length > 0 : body === bodies.get(t.file));
        if (!ok) {
          wrong++;
          firstWrong ??= `${t.path}${t.headers ? ` ${JSON.stringify(t.headers)}` : ''}: status ${status}, ${body.length} characters${t.file ? ` where ${t.file} has ${bodies.get(t.file)!.length}` : ''}`;
        }
      },
    }));
    const samples: { at: number; rss: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: answered, rss: rssOf(node.pid!) }), 250);
    const started = performance.now();
    const run = await autocannon({ url: node.origin, connections: o.connections, amount: o.amount, timeout: o.timeout, requests });
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const warm = samples.filter((s) => s.at >= o.amount / 4);
    const afterWarmUp = warm[0]?.rss ?? NaN;
    const last = samples.at(-1)?.rss ?? NaN;
    const peak = Math.max(...samples.map((s) => s.rss));
    const grew = last > afterWarmUp * GROWTH;
    process.stdout.write([
      `mix: ${run.requests.total} requests in ${seconds.toFixed(1)} s, ${(run.requests.total / seconds).toFixed(0)} req/s, latency p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms`,
      `  errors ${run.errors} (timeouts ${run.timeouts}), non-2xx ${run.non2xx}, answers checked ${answered}, wrong ${wrong}${firstWrong ? ` (first: ${firstWrong})` : ''}`,
      `  server RSS: after warm-up (a quarter of the requests) ${mib(afterWarmUp)}, at the end ${mib(last)}, peak ${mib(peak)} (${samples.length} samples)${grew ? `: GREW more than ${GROWTH}×` : ': not growing'}`,
      '',
    ].join('\n'));
    if (run.errors > 0 || run.timeouts > 0 || run.non2xx > 0 || wrong > 0 || answered < o.amount || grew) failures++;

    // 2. A file and a search alone, beside nginx for the same file URLs.
    const fileUrls = targets.filter((t) => t.kind === 'file').map((t) => t.path);
    const searchUrls = targets.filter((t) => t.kind === 'search').map((t) => t.path);
    const timed = async (server: RunningServer, urls: string[]) => {
      const r = await autocannon({ url: server.origin, connections: o.connections, duration: o.duration, timeout: o.timeout, requests: urls.map((p) => ({ method: 'GET', path: p })) });
      return r;
    };
    const rows: string[] = [];
    const row = (server: string, what: string, r: AutocannonResult) => rows.push(`| ${server} | ${what} | ${r.requests.total} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors} | ${r.non2xx} |`);
    row('node', `a file (${fileUrls.length} query URLs)`, await timed(node, fileUrls));
    row('node', `a search (${searchUrls.length} URLs)`, await timed(node, searchUrls));
    await node.stop();
    const nginx = await startSiteServer('nginx', o.site);
    try {
      row('nginx', `a file (the same ${fileUrls.length} URLs)`, await timed(nginx, fileUrls));
      const search = await fetch(`${nginx.origin}${searchUrls[0]}`);
      rows.push(`| nginx | a search | — | — | — | — | — | ${search.status}: ${JSON.stringify(((await search.json()) as { detail?: string }).detail ?? '').slice(0, 60)}… |`);
    } finally {
      await nginx.stop();
    }
    process.stdout.write(`\n| server | what | requests | req/s | p50 ms | p99 ms | errors | non-2xx |\n|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`);
  } finally {
    await node.stop();
  }
  return failures > 0 ? 1 : 0;
}
