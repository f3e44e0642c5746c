// Link integrity: every URL a body of the built site points at must answer.
// URLs come from every JSON, JSONP (under api/), YAML and HTML file; they are
// checked on Netlify's own engine (`netlify dev`, query URLs as they are) and
// on a plain static server (http-server, query URLs mapped to their path URL).
//
// Every URL (query URLs as their path URL) must name a file of the site, as
// a static server resolves it (a folder: its index.html): checked on disk
// for all of them. Over HTTP, a deterministic, stratified sample (evenly
// spread over every URL shape): netlify dev needs 10-200 ms a request here,
// and http-server 1.5 ms, so the ~120,000 unique URLs would take hours on
// one and three minutes on the other. The printed counts say which is which.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SITE_BASE_URL } from '../support/paths.ts';
import { turn } from '../support/run.ts';
import { FORMAT_FILES, type Format, fetchAll, get, problems, startHttpServer, startNetlifyDev, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
const PATH_SAMPLE_PER_SHAPE = 5;
/** Query URLs by shape: the filtered lists and page sizes add ~30,000 next/previous links. */
const QUERY_SAMPLE_PER_SHAPE = 5;
/** http-server: every URL on disk, this many of every shape over HTTP. */
const HTTP_SAMPLE_PER_SHAPE = 40;
const NETLIFY_CONCURRENCY = 8;
const HTTP_SERVER_CONCURRENCY = 24;

interface Collected {
  /** Unique root-relative URLs ("/api/v1/matrix?format=json&page=2"), sorted. */
  urls: string[];
  /** Links to another host (pages must work offline), with the file. */
  foreign: string[];
  /** Files that could not be read as their format. */
  unreadable: string[];
  files: number;
}

/** Hosts the pages for people may link to (UniProt, PubMed, NCBI Taxonomy, JASPAR's profile pages). */
const EXTERNAL_LINK_HOSTS = new Set(['www.uniprot.org', 'pubmed.ncbi.nlm.nih.gov', 'www.ncbi.nlm.nih.gov', 'jaspar.elixir.no']);

/** Decodes the entities an HTML attribute value may carry. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (_, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[lower];
  });
}

/** The URL a file is served at: "api/v1/matrix/page/2/index.html" → "/api/v1/matrix/page/2/". */
function servedAt(file: string): string {
  return `/${file}`.replace(/index\.html$/, '');
}

/** Reads every body; a turn of the event loop every 500 files (test/support/event-loop.ts). */
async function collect(): Promise<Collected> {
  const base = new URL(SITE_BASE_URL);
  const urls = new Set<string>();
  const foreign: string[] = [];
  const unreadable: string[] = [];
  const fromBase = (value: string) => value.slice(SITE_BASE_URL.length) || '/';
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value === SITE_BASE_URL || value.startsWith(`${SITE_BASE_URL}/`)) urls.add(fromBase(value));
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v);
    } else if (value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) walk(v);
    }
  };
  const files = fg.sync(['**/*.json', 'api/**/*.js', '**/*.yaml', '**/*.html'], { cwd: siteDir, dot: true, onlyFiles: true }).sort();
  for (const [i, file] of files.entries()) {
    if (i % 500 === 499) await turn();
    const text = readFileSync(path.join(siteDir, file), 'utf8');
    try {
      if (file.endsWith('.json')) {
        walk(JSON.parse(text));
      } else if (file.endsWith('.js')) {
        const m = /^callback\(([\s\S]*)\);\s*$/.exec(text);
        if (!m) throw new Error('not callback(…);');
        walk(JSON.parse(m[1]));
      } else if (file.endsWith('.yaml')) {
        walk(yaml.load(text));
      } else {
        for (const m of text.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi)) {
          const raw = decodeEntities((m[1] ?? m[2] ?? m[3]).trim());
          if (raw === '' || raw.startsWith('#') || /^(mailto|tel|data):/i.test(raw)) continue;
          const resolved = new URL(raw, `${SITE_BASE_URL}${servedAt(file)}`);
          if (resolved.origin !== base.origin) {
            // A matrix page links out to the databases its annotations come from (issue 20);
            // those are links a person follows, never something a page loads.
            if (/^\s*href/i.test(m[0]) && EXTERNAL_LINK_HOSTS.has(resolved.host) && resolved.protocol === 'https:') continue;
            foreign.push(`${file}: ${raw}`);
            continue;
          }
          urls.add(`${resolved.pathname}${resolved.search}`);
        }
      }
    } catch (error) {
      unreadable.push(`${file}: ${(error as Error).message}`);
    }
  }
  return { urls: [...urls].sort(), foreign, unreadable, files: files.length };
}

/** The shape of a URL: ids, filter values and numbers replaced, so that samples cover every kind of link. */
function shape(url: string): string {
  return url
    .replace(/[A-Z]{2}\d{4}(\.\d+)?/g, '<id>')
    .replace(/(collection|tax_group|tax_id|version|collections|taxon|species)([=/])[^&/?]+/g, '$1$2<v>')
    .replace(/\d+/g, '<n>');
}

function stratifiedSample(urls: string[], perShape: number): string[] {
  const byShape = new Map<string, string[]>();
  for (const u of urls) {
    const key = shape(u);
    const group = byShape.get(key);
    if (group) group.push(u);
    else byShape.set(key, [u]);
  }
  const out: string[] = [];
  for (const group of byShape.values()) {
    if (group.length <= perShape) out.push(...group);
    else for (let i = 0; i < perShape; i++) out.push(group[Math.floor((i * group.length) / perShape)]);
  }
  return out.sort();
}

const FILTERS = ['collection', 'tax_group', 'tax_id', 'version'];
const PATH_FILTER: Record<string, string> = { collections: 'collection', taxon: 'tax_group', species: 'tax_id' };

/** Another release's site (/releases/2026/…): the same layout under its path. */
const RELEASE_SITE = /^(\/releases\/[0-9]{4})(\/.*)$/;

/** The path URL a plain static server answers for a query URL, or null (layout: generator/routes/urls.ts). */
function pathEquivalent(url: string): string | null {
  const inRelease = RELEASE_SITE.exec(url);
  if (inRelease) {
    const inner = pathEquivalent(inRelease[2]);
    return inner === null ? null : `${inRelease[1]}${inner}`;
  }
  const u = new URL(url, 'http://x');
  // The search page reads its query itself, on any host.
  if (u.pathname === '/search/') return '/search/';
  const q = u.searchParams;
  const format = q.get('format') ?? 'json';
  if (!Object.hasOwn(FORMAT_FILES, format)) return null;
  const file = (dir: string) => (format === 'api' ? dir : `${dir}${FORMAT_FILES[format as Format]}`);
  const page = q.get('page') ?? '1';
  if (!/^[1-9]\d*$/.test(page)) return null;
  const size = q.get('page_size');
  const sized = size && size !== '10' ? `page_size/${size}/` : '';
  const list = /^\/api\/v1\/(?:matrix|(collections|taxon|species)\/([^/]+))\/?$/.exec(u.pathname);
  if (list) {
    const filters = new Map(FILTERS.filter((k) => q.has(k)).map((k) => [k, q.get(k)!]));
    if (list[1]) filters.set(PATH_FILTER[list[1]], decodeURIComponent(list[2]));
    const dir = FILTERS.filter((k) => filters.has(k)).map((k) => `${k}/${filters.get(k)}/`).join('');
    return file(`/api/v1/matrix/${dir}${sized}page/${page}/`);
  }
  const index = /^\/api\/v1\/(collections|taxon|species|releases)\/?$/.exec(u.pathname);
  if (index) return file(`/api/v1/${index[1]}/${sized}page/${page}/`);
  const single = /^\/api\/v1\/(?:matrix\/([A-Z]{2}\d{4}(?:\.\d+)?)(\/versions)?|(releases|sites)\/([^/]+))?\/?$/.exec(u.pathname);
  if (!single) return null;
  if (single[1]) return file(`/api/v1/matrix/${single[1]}${single[2] ?? ''}/`);
  if (single[3]) return file(`/api/v1/${single[3]}/${single[4]}/`);
  return file('/api/v1/');
}

/**
 * Whether a root-relative path URL names a file of the site as a static
 * server resolves it: a file, or a folder (with or without its slash) with
 * an index.html.
 */
function servedFile(url: string): boolean {
  const rel = decodeURIComponent(url.split(/[?#]/)[0]).replace(/^\/+/, '');
  const isFile = (p: string) => {
    try {
      return statSync(path.join(siteDir, p)).isFile();
    } catch {
      return false;
    }
  };
  if (rel === '' || rel.endsWith('/')) return isFile(`${rel}index.html`);
  return isFile(rel) || isFile(`${rel}/index.html`);
}

interface Outcome {
  checked: number;
  broken: string[];
  seconds: number;
}

async function check(server: RunningServer, urls: string[], concurrency: number, redirect: RequestRedirect): Promise<Outcome> {
  const started = performance.now();
  const broken = (await fetchAll(urls, concurrency, async (u) => {
    try {
      const r = await get(`${server.origin}${u}`, redirect);
      // netlify dev answers a rewrite to a missing file with 200 and the Not found body.
      return r.status === 200 && r.body.toString('utf8') !== '{"detail":"Not found."}' ? null : `${u} → ${r.status} ${r.body.toString('utf8').slice(0, 40)}`;
    } catch (error) {
      return `${u} → ${(error as Error).message}`;
    }
  })).filter((b): b is string => b !== null);
  return { checked: urls.length, broken, seconds: (performance.now() - started) / 1000 };
}

let collected: Collected;
let netlify: RunningServer;
let httpServer: RunningServer;

beforeAll(async () => {
  const started = performance.now();
  const servers = Promise.all([startNetlifyDev(siteDir), startHttpServer(siteDir)]);
  collected = await collect();
  console.log(`links: ${collected.urls.length} unique URLs (${collected.urls.filter((u) => u.includes('?')).length} with a query) from ${collected.files} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  [netlify, httpServer] = await servers;
  // Reading every body of the full site (`npm run test:full`, 285,000 files) took over 180 s on a loaded machine.
}, 900_000);

afterAll(async () => {
  await Promise.all([netlify?.stop(), httpServer?.stop()]);
}, 30_000);

describe('links in the built site', () => {
  it('reads every body and links to no other host but the databases a matrix page cites', () => {
    expect(collected.urls.length).toBeGreaterThan(0);
    expect(collected.unreadable, problems(collected.unreadable)).toEqual([]);
    expect(collected.foreign, `pages must work offline; links to other hosts: ${problems(collected.foreign)}`).toEqual([]);
  });

  // The two servers are separate processes: checking them at the same time
  // uses both cores.
  describe.concurrent('every link answers 200', () => {
    it('on netlify dev: a sample of every shape of query URL and of path URL', async () => {
      const allQuery = collected.urls.filter((u) => u.includes('?'));
      const query = stratifiedSample(allQuery, QUERY_SAMPLE_PER_SHAPE);
      const paths = collected.urls.filter((u) => !u.includes('?'));
      const sample = stratifiedSample(paths, PATH_SAMPLE_PER_SHAPE);
      // No redirects allowed: the rules rewrite (200), they never redirect.
      // Another release's query URLs (its bodies' next, previous, url) need the edge function on
      // Netlify: without it they answer 501 saying where that release's files are (hosting/rules.ts),
      // asserted apart; its pages for people (format=api alone) are its folders' pages.
      const otherRelease = (u: string) => /^\/releases\/[0-9]{4}\/api\//.test(u) && !/\?format=api$/.test(u);
      const refused = query.filter(otherRelease);
      const outcome = await check(netlify, [...query.filter((u) => !otherRelease(u)), ...sample], NETLIFY_CONCURRENCY, 'manual');
      const notRefused = (await fetchAll(refused, NETLIFY_CONCURRENCY, async (u) => {
        const r = await get(`${netlify.origin}${u}`, 'manual');
        return r.status === 501 && /^\{"detail":"JASPAR [0-9]{4} is answered here by its path URLs/.test(r.body.toString('utf8')) ? null : `${u} → ${r.status} ${r.body.toString('utf8').slice(0, 60)}`;
      })).filter((b): b is string => b !== null);
      expect(refused.length, 'the sample holds query URLs of the other release').toBeGreaterThan(0);
      expect(notRefused, problems(notRefused)).toEqual([]);
      console.log(`links on netlify dev: ${outcome.checked} unique URLs checked (a sample of ${query.length} of the ${allQuery.length} query URLs + a sample of ${sample.length} of the ${paths.length} path URLs), ${outcome.broken.length} broken, ${outcome.seconds.toFixed(1)} s`);
      expect(outcome.broken, problems(outcome.broken)).toEqual([]);
    }, 600_000);

    it('on http-server: every path URL names a file, a sample of them answers; query URLs as their path URL', async () => {
      const unmappable: string[] = [];
      const targets = new Set<string>();
      let query = 0;
      for (const u of collected.urls) {
        if (!u.includes('?')) {
          targets.add(u);
          continue;
        }
        query++;
        const mapped = pathEquivalent(u);
        if (mapped === null) unmappable.push(`${u} → no path URL`);
        else targets.add(mapped);
      }
      const all = [...targets].sort();
      const missing = all.filter((u) => !servedFile(u)).map((u) => `${u} → no file in the site`);
      // versions_url has no trailing slash: http-server redirects it to the folder.
      const sample = stratifiedSample(all, HTTP_SAMPLE_PER_SHAPE);
      const outcome = await check(httpServer, sample, HTTP_SERVER_CONCURRENCY, 'follow');
      const broken = [...unmappable, ...missing, ...outcome.broken];
      console.log(`links on http-server: ${all.length} unique URLs (every path URL; ${query} query URLs mapped to path URLs) resolved to files, ${outcome.checked} of them fetched (up to ${HTTP_SAMPLE_PER_SHAPE} of every shape), ${broken.length} broken, ${outcome.seconds.toFixed(1)} s`);
      expect(broken, problems(broken)).toEqual([]);
    }, 600_000);
  });
});
