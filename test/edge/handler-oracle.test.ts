// The edge handler in process (Node's Request/Response), its static files
// served from the site the global setup built, against the DRF oracle on a
// broad grid of requests (grid.ts); then the same grid through the Node
// server (`node serve.mjs`, the handler over the files with Node's http,
// generator/server/) over HTTP. Prints the grid's summary: same, by design
// (each reason), refused (each reason), different. "different" must be 0.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHandler } from '../../generator/edge/handler.ts';
import { SITE_BASE_URL } from '../support/paths.ts';
import { startOracle, type Oracle } from '../support/oracle.ts';
import { fetchAll, problems, startSiteServer } from '../support/servers.ts';
import { folderSite } from './folder-site.ts';
import { DESIGN, askMirror, askOracle, grid, judge, type GridRequest, type Verdict } from './grid.ts';

/** One handler for the file: the indexes are read once. */
const handle = createHandler();

let oracle: Oracle;
const site = () => folderSite(inject('siteDir'));

beforeAll(async () => {
  oracle = await startOracle();
});
afterAll(async () => {
  await oracle?.stop();
});

/** The grid through `ask`, judged against the oracle; prints the summary and expects nothing different. */
async function runGrid(label: string, ask: (request: Request) => Promise<Response>): Promise<void> {
  const requests = grid();
  const verdicts: { request: GridRequest; verdict: Verdict }[] = await fetchAll(requests, 4, async (request) => {
    const [mirror, reference] = await Promise.all([askMirror(ask, SITE_BASE_URL, request), askOracle(oracle.origin, SITE_BASE_URL, request)]);
    return { request, verdict: judge(request, mirror, reference) };
  });
  const count = (kind: Verdict['kind']) => verdicts.filter((v) => v.verdict.kind === kind).length;
  const byReason = (kind: 'design' | 'refused') => {
    const reasons = new Map<string, number>();
    for (const { verdict } of verdicts) {
      if (verdict.kind !== kind) continue;
      const reason = verdict.kind === 'design' ? `${verdict.reason}: ${DESIGN[verdict.reason]}` : verdict.kind === 'refused' ? verdict.reason : '';
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    return [...reasons].map(([r, n]) => `    ${n} × ${r}`).join('\n');
  };
  const different = verdicts.filter((v) => v.verdict.kind === 'different').map(({ request, verdict }) =>
    `${request.method ?? 'GET'} ${request.target}${request.accept ? ` [Accept: ${request.accept}]` : ''}: ${(verdict as { why: string }).why}`);
  process.stdout.write([
    `edge grid (${label}, against the DRF oracle): ${requests.length} requests`,
    `  same ${count('same')}, by design ${count('design')}, refused ${count('refused')}, different ${count('different')}`,
    `  by design:\n${byReason('design')}`,
    `  refused:\n${byReason('refused')}`,
    '',
  ].join('\n'));
  expect(different, problems(different)).toEqual([]);
  // The grid must mostly compare data, not reasons.
  expect(count('same')).toBeGreaterThan(requests.length * 0.7);
}

describe('edge handler against the DRF oracle', () => {
  it('answers the grid as the service does', { timeout: 900_000 }, async () => {
    const s = site();
    await runGrid('in process', (r) => handle(r, s));
  });

  it('answers the grid as the service does through the Node server (serve.mjs) over HTTP', { timeout: 900_000 }, async () => {
    const server = await startSiteServer('node', inject('siteDir'));
    try {
      await runGrid('the Node server, serve.mjs', async (r) => {
        const url = new URL(r.url);
        // identity: the lengths compared are those of the body itself, as in process.
        const headers = new Headers(r.headers);
        headers.set('Accept-Encoding', 'identity');
        return fetch(`${server.origin}${url.pathname}${url.search}`, { method: r.method, headers, redirect: 'manual' });
      });
    } finally {
      await server.stop();
    }
  });
});
