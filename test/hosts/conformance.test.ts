// One suite, every host: the same cases (cases.ts) against the Node server
// (serve.mjs, the whole API: a case's `full` expectation), netlify dev,
// nginx, Caddy, Apache httpd and http-server, each started as
// `npm run serve -- --server <host>` starts it, over the site the global
// setup built. A case a host declares unsupported (cases.ts LACKS, with the
// reason) is run and shown, never asserted; every other case must pass.
// Prints the table case × host at the end.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findBinary, installHint } from '../../scripts/serve.ts';
import { startSiteServer, type RunningServer } from '../support/servers.ts';
import { FULL_API_HOSTS, LACKS, RULES_FIRST, cases, unsupported, type Case, type FullExpect, type HostName } from './cases.ts';

const siteDir = inject('siteDir');
const HOSTS: HostName[] = ['node', 'nginx+node', 'caddy+node', 'apache+node', 'nginx', 'caddy', 'apache', 'netlify', 'http-server'];
/** The server a host name starts and whether the Node server runs behind it (`npm run serve -- --server nginx --with-node`). */
const serverOf = (host: HostName) => ({ server: host.replace('+node', '') as Exclude<HostName, `${string}+node`>, withNode: host.endsWith('+node') });

function siteFacts() {
  const first = JSON.parse(readFileSync(path.join(siteDir, 'api/v1/matrix/page/1/index.json'), 'utf8')) as { count: number };
  return { lastPage: Math.max(1, Math.ceil(first.count / 10)) };
}

/** What is wrong with the answer to a case; empty: it conforms. */
async function check(origin: string, c: Case, host: HostName): Promise<string[]> {
  const response = await fetch(`${origin}${c.path}`, { redirect: 'manual', headers: c.headers, signal: AbortSignal.timeout(60_000) });
  const body = Buffer.from(await response.arrayBuffer());
  const problems: string[] = [];
  const e: FullExpect = (RULES_FIRST.has(host) ? c.behind : undefined) ?? (FULL_API_HOSTS.has(host) ? c.full : undefined) ?? c.expect;
  if (response.status !== e.status) problems.push(`status ${response.status}, expected ${e.status}`);
  const file = (f: string) => readFileSync(path.join(siteDir, f));
  const same = (f: string) => (e.linksAside ? linksAside(body.toString('utf8')) === linksAside(file(f).toString('utf8')) : body.equals(file(f)));
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
    if (response.headers.get(name) !== value) problems.push(`${name}: ${response.headers.get(name)}, expected ${value}`);
  }
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

/** The next and previous links' values put aside (JSON or YAML): a body compared with a file but for those. */
function linksAside(text: string): string {
  return text.replace(/"(next|previous)":(null|"[^"]*")/g, '"$1":_').replace(/^(next|previous): .*$/gm, '$1: _');
}

const ALL = cases(siteFacts());
/** host → case id → "pass" | "FAIL" | "n/s" | "n/s, passes" */
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

describe.each(HOSTS)('%s', (host) => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    const { server: name, withNode } = serverOf(host);
    if (!findBinary(name)) throw new Error(`${name} is not installed: ${installHint(name)}`);
    server = await startSiteServer(name, siteDir, { withNode });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(ALL.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const reason = unsupported(host, c);
    const problems = await check(server!.origin, c, host);
    table.get(host)!.set(c.id, reason ? (problems.length ? 'n/s' : 'n/s, passes') : problems.length ? 'FAIL' : 'pass');
    if (!reason) expect(problems, `${c.what}: GET ${c.path}${c.headers ? ` ${JSON.stringify(c.headers)}` : ''}`).toEqual([]);
  });
});
