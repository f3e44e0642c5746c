// One suite, every host: the same cases (cases.ts) against the Node server
// (serve.mjs, the whole API: a case's `full` expectation), netlify dev,
// nginx, Caddy, Apache httpd and http-server, each started as
// `npm run serve -- --server <host>` starts it, over the site the global
// setup built. A case a host declares unsupported (cases.ts LACKS, with the
// reason) is run and shown, never asserted; every other case must pass.
// Prints the table case × host at the end.
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findBinary, installHint } from '../../scripts/serve.ts';
import { sharedRelease } from '../support/release.ts';
import { get, startSiteServer, type RunningServer } from '../support/servers.ts';
import { FULL_API_HOSTS, LACKS, RULES_FIRST, browserCases, cases, hostileCases, locationStaysOnSite, unsupported, type Case, type Expect, type HostName, type SiteFacts } from './cases.ts';

const siteDir = inject('siteDir');
const HOSTS: HostName[] = ['node', 'nginx+node', 'caddy+node', 'apache+node', 'nginx', 'caddy', 'apache', 'netlify', 'http-server'];
/** The server a host name starts and whether the Node server runs behind it (`npm run serve -- --server nginx --with-node`). */
const serverOf = (host: HostName) => ({ server: host.replace('+node', '') as Exclude<HostName, `${string}+node`>, withNode: host.endsWith('+node') });

/** What the cases' expectations depend on, from the site and the release folder it was built from (the fixture's under `npm test`). */
function siteFacts(): SiteFacts {
  const first = JSON.parse(readFileSync(path.join(siteDir, 'api/v1/matrix/page/1/index.json'), 'utf8')) as { count: number };
  const release = sharedRelease().matrices;
  return {
    lastPage: Math.max(1, Math.ceil(first.count / 10)),
    matrices: release.length,
    searchCtcf: release.filter((m) => [m.name, m.baseId, m.collection].some((v) => v.toLowerCase().includes('ctcf'))).length,
    humanCore: release.filter((m) => m.collection === 'CORE' && m.species.some((s) => s.taxId === 9606)).length,
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  /** Status line and header lines as received. */
  head: string;
}

/** A request as raw bytes on a socket (fetch refuses TRACE, absolute-form targets, two Host headers, a raw ".."). */
function sendRaw(origin: string, c: Case): Promise<Answer> {
  const url = new URL(origin);
  const raw = c.raw!;
  const lines = [`${raw.method ?? 'GET'} ${raw.target ?? c.path} HTTP/1.1`, ...(raw.headers?.some((h) => /^host:/i.test(h)) ? [] : [`Host: ${url.host}`]), ...(raw.headers ?? [])];
  for (const [name, value] of Object.entries(c.headers ?? {})) lines.push(`${name}: ${value}`);
  lines.push('Connection: close', '', '');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(60_000, () => socket.destroy(new Error('no answer in 60 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer (${all.length} bytes: ${JSON.stringify(all.subarray(0, 80).toString('latin1'))})`));
      const head = all.subarray(0, split).toString('latin1');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = new Headers();
      for (const line of headerLines) {
        const at = line.indexOf(':');
        headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      let body: Buffer = Buffer.from(all.subarray(split + 4));
      if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = unchunk(body);
      if (headers.get('content-encoding') === 'gzip') body = gunzipSync(body);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, head });
    });
    socket.write(lines.join('\r\n'));
  });
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n', at);
    if (end < 0) break;
    const size = parseInt(data.subarray(at, end).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

async function send(origin: string, c: Case): Promise<Answer> {
  if (c.raw) return sendRaw(origin, c);
  const response = await fetch(`${origin}${c.path}`, { redirect: 'manual', headers: c.headers, signal: AbortSignal.timeout(60_000) });
  const head = [`HTTP/1.1 ${response.status}`, ...[...response.headers].map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()), head };
}

/** What is wrong with the answer to a case; empty: it conforms. */
async function check(origin: string, c: Case, host: HostName): Promise<string[]> {
  const response = await send(origin, c);
  const body = response.body;
  const problems: string[] = [];
  const e: Expect = (RULES_FIRST.has(host) ? c.behind : undefined) ?? (FULL_API_HOSTS.has(host) ? c.full : undefined) ?? c.expect;
  if (e.status !== undefined && response.status !== e.status) problems.push(`status ${response.status}, expected ${e.status}`);
  if (e.statusIn !== undefined && !e.statusIn.includes(response.status)) problems.push(`status ${response.status}, expected one of ${e.statusIn.join(', ')}`);
  if (response.status >= 500 && e.status === undefined) problems.push(`status ${response.status}: a server error`);
  const location = response.headers.get('location');
  if (location !== null && !locationStaysOnSite(location, origin)) problems.push(`Location ${location} leaves the site`);
  if (e.allow) {
    const methods = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '');
    if (methods.join(', ') !== 'GET, HEAD, OPTIONS') problems.push(`Allow: ${response.headers.get('allow')}, expected GET, HEAD, OPTIONS`);
  }
  for (const text of e.absent ?? []) {
    const where = `${response.head}\r\n\r\n${body.toString('latin1')}`.toLowerCase();
    if (where.includes(text.toLowerCase())) problems.push(`"${text}" is in the answer (${JSON.stringify(where.slice(Math.max(0, where.indexOf(text.toLowerCase()) - 60), where.indexOf(text.toLowerCase()) + 40))})`);
  }
  const file = (f: string) => readFileSync(path.join(siteDir, f));
  const same = (f: string) => body.equals(file(f));
  if (e.file !== undefined && !same(e.file)) problems.push(`body is not ${e.file} (${body.length} bytes: ${JSON.stringify(body.subarray(0, 80).toString('utf8'))})`);
  if (e.detail !== undefined) {
    let detail: unknown;
    try {
      detail = (JSON.parse(body.toString('utf8')) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (typeof detail !== 'string' || !detail.startsWith(e.detail)) problems.push(`body ${JSON.stringify(body.subarray(0, 100).toString('utf8'))}, expected detail "${e.detail}…"`);
  }
  if (e.json !== undefined || e.results !== undefined) {
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      problems.push(`body is not JSON: ${JSON.stringify(body.subarray(0, 80).toString('utf8'))}`);
    }
    for (const [key, value] of Object.entries(e.json ?? {})) if (parsed && JSON.stringify(parsed[key]) !== JSON.stringify(value)) problems.push(`${key}: ${JSON.stringify(parsed[key])}, expected ${JSON.stringify(value)}`);
    if (parsed && e.results !== undefined && (parsed.results as unknown[] | undefined)?.length !== e.results) problems.push(`${(parsed.results as unknown[] | undefined)?.length} results, expected ${e.results}`);
  }
  if (e.varies !== undefined && !(response.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase()).includes(e.varies.toLowerCase())) problems.push(`Vary: ${response.headers.get('vary')}, expected it to list ${e.varies}`);
  if (e.contentType !== undefined && response.headers.get('content-type') !== e.contentType) problems.push(`Content-Type ${response.headers.get('content-type')}, expected ${e.contentType}`);
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  if (e.type !== undefined && type !== e.type) problems.push(`media type ${type}, expected ${e.type}`);
  for (const [name, value] of Object.entries(e.headers ?? {})) {
    // Vary: the expected tokens among the ones sent (compression adds Accept-Encoding).
    const got = response.headers.get(name);
    const ok = name.toLowerCase() === 'vary' ? value.split(',').every((t) => (got ?? '').split(',').map((g) => g.trim().toLowerCase()).includes(t.trim().toLowerCase())) : got === value;
    if (!ok) problems.push(`${name}: ${got}, expected ${value}`);
  }
  for (const name of e.noHeaders ?? []) if (response.headers.has(name)) problems.push(`a ${name} header: ${response.headers.get(name)}`);
  if (e.location) {
    const location = response.headers.get('location');
    if (!location) problems.push('no Location');
    else {
      const target = new URL(location, origin);
      const sent = new URL(c.path, origin).searchParams;
      if (target.pathname !== e.location.path) problems.push(`Location path ${target.pathname}, expected ${e.location.path}`);
      for (const [key, value] of sent) {
        const want = e.location.query[key] ?? value;
        if (target.searchParams.get(key) !== want) problems.push(`Location ${key}=${target.searchParams.get(key)}, expected ${want}`);
      }
    }
  }
  return problems;
}


/** Cases a host declares it cannot do in general that it passes as asked, and why: asserted to pass. */
const PASSES_ANYWAY: Partial<Record<HostName, Record<string, string>>> = {
  // control-chars: a placeholder rule takes %00 as a matrix id; no rule matches this path, whose file is missing: 404.
  netlify: { 'null-byte-file': 'no _redirects rule matches /index.html%00.json' },
};

/** What a plain static server answers for a path, its query and headers ignored: the file, a folder's index.html, else null (404). */
function staticFile(pathname: string): Buffer | null {
  const at = path.join(siteDir, decodeURIComponent(pathname));
  for (const candidate of pathname.endsWith('/') ? [path.join(at, 'index.html')] : [at, path.join(at, 'index.html')]) {
    try {
      return readFileSync(candidate);
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * What a host does where it declares it cannot answer a case (LACKS,
 * test/hosts/cases.ts), so that a change either way is seen: http-server,
 * ignoring queries and headers, answers the path's file or folder page (or
 * 404); every other declared lack still fails the case (a host that comes to
 * pass it has its declaration removed), but for PASSES_ANYWAY.
 */
async function insteadProblems(host: HostName, origin: string, c: Case, problems: string[]): Promise<string[]> {
  const first = c.needs.find((ability) => LACKS[host][ability] !== undefined)!;
  const anyway = PASSES_ANYWAY[host]?.[c.id];
  if (anyway) return problems.map((p) => `${p} (declared to pass anyway: ${anyway})`);
  if (host === 'http-server' && ['query', 'folder-json', 'accept', 'accept-html'].includes(first) && c.raw === undefined) {
    const url = new URL(c.path, origin);
    const want = staticFile(url.pathname);
    const answer = await get(url.href, 'follow');
    if (want === null) return answer.status === 404 ? [] : [`http-server: ${url.pathname} names no file, and it answered ${answer.status} (expected 404)`];
    return answer.status === 200 && answer.body.equals(want) ? [] : [`http-server ignores the query and headers: expected the file of ${url.pathname}, got ${answer.status} ${JSON.stringify(answer.body.subarray(0, 80).toString('utf8'))}`];
  }
  return problems.length > 0 ? [] : [`passes, though LACKS declares "${first}" not supported there: remove the declaration, or name the case in PASSES_ANYWAY`];
}

const ALL = [...cases(siteFacts()), ...browserCases(), ...hostileCases()];
/** host → case id → "pass" | "FAIL" | "n/s" (not supported, does what LACKS says instead) | "FAIL (n/s)" */
const table = new Map<HostName, Map<string, string>>(HOSTS.map((h) => [h, new Map()]));

function printTable(): void {
  const width = Math.max(...ALL.map((c) => c.id.length));
  const cell = (text: string) => text.padEnd(12);
  const lines = [`${'case'.padEnd(width)}  ${HOSTS.map(cell).join('')}`];
  for (const c of ALL) lines.push(`${c.id.padEnd(width)}  ${HOSTS.map((h) => cell(table.get(h)!.get(c.id) ?? '(not run)')).join('')}`);
  lines.push('', 'n/s: not supported by this host (declared in test/hosts/cases.ts):');
  for (const h of HOSTS) for (const [ability, reason] of Object.entries(LACKS[h])) lines.push(`  ${h}, ${ability}: ${reason}`);
  process.stdout.write(`\nconformance (${ALL.length} cases):\n${lines.join('\n')}\n`);
}

afterAll(printTable);

// The hosts side by side (each its own server), the cases of one host one
// after the other: netlify dev's malformed-escape case ends it, so it must
// come after the others there; side by side the file took 40 s less wall.
describe.concurrent.each(HOSTS)('%s', (host) => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    const { server: name, withNode } = serverOf(host);
    if (!findBinary(name)) throw new Error(`${name} is not installed: ${installHint(name)}`);
    // Its own netlify dev, not the one the suites share: the malformed-escape case ends it (LACKS.netlify).
    server = await startSiteServer(name, siteDir, { withNode, shared: false });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.sequential.each(ALL.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const reason = unsupported(host, c);
    let problems: string[];
    try {
      problems = await check(server!.origin, c, host);
    } catch (error) {
      // No answer at all (the server died or closed the connection): a problem like any other.
      problems = [`no answer: ${(error as Error).message}`];
    }
    const asked = `${c.what}: GET ${c.path}${c.headers ? ` ${JSON.stringify(c.headers)}` : ''}`;
    if (!reason) {
      table.get(host)!.set(c.id, problems.length ? 'FAIL' : 'pass');
      expect(problems, asked).toEqual([]);
      return;
    }
    // A case the host declares it cannot do asserts what LACKS says it does instead, so that a change either way is seen.
    const instead = await insteadProblems(host, server!.origin, c, problems);
    table.get(host)!.set(c.id, instead.length ? 'FAIL (n/s)' : 'n/s');
    expect(instead, `${asked}: declared not supported (${reason})`).toEqual([]);
  });
});
