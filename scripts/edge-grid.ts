// The edge handler's oracle grid (test/edge/grid.ts) outside vitest, against
// a site already built:
//   npx tsx scripts/edge-grid.ts --site DIR [--oracle http://127.0.0.1:PORT] [--show N] [--engine netlify|cloudflare]
// --engine runs the engines' sample (test/edge/engine-grid.ts) through that
// real engine (test/support/edge-servers.ts) instead of the whole grid in process.
// Without --oracle it starts the DRF oracle (test/support/oracle.ts) on a free
// loopback port and stops it at the end. The site must be built with
// --base-url http://jaspar.test (the tests' base URL). Prints the summary and
// the first N differences; exits 1 when any.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createHandler } from '../generator/edge/handler.ts';
import { SITE_BASE_URL } from '../test/support/paths.ts';
import { startOracle } from '../test/support/oracle.ts';
import { fetchAll } from '../test/support/servers.ts';
import { folderSite } from '../test/edge/folder-site.ts';
import { DESIGN, askMirror, askOracle, grid, judge, type GridRequest } from '../test/edge/grid.ts';
import { askEngine, engineGrid, idsOf } from '../test/edge/engine-grid.ts';
import { cloudflareSiteView, startEdgeServer, type EdgeServer, type Engine } from '../test/support/edge-servers.ts';

/** One handler for the file: the indexes are read once. */
const handle = createHandler();

const { values } = parseArgs({ options: { site: { type: 'string' }, oracle: { type: 'string' }, show: { type: 'string', default: '20' }, filter: { type: 'string' }, engine: { type: 'string' } } });
if (!values.site) throw new Error('--site DIR (a site built with --base-url http://jaspar.test)');
const siteDir = path.resolve(values.site);
const site = folderSite(siteDir);
const engine = values.engine as Engine | undefined;
let server: EdgeServer | undefined;
let view: string | undefined;
if (engine) {
  const sample = engineGrid().oracle;
  const made = engine === 'cloudflare' ? await cloudflareSiteView(siteDir, idsOf(sample)) : null;
  view = made?.dir;
  server = await startEdgeServer(engine, made?.dir ?? siteDir);
  console.log(`${engine} started in ${(server.startupMs / 1000).toFixed(1)} s`);
}
const started = values.oracle ? null : await startOracle();
const origin = values.oracle ?? started!.origin;

try {
  const requests = (engine ? engineGrid().oracle : grid()).filter((r) => !values.filter || r.target.includes(values.filter));
  const verdicts = await fetchAll(requests, server ? 2 : 4, async (r: GridRequest) => {
    const [mirror, oracle] = await Promise.all([server ? askEngine(server.origin, r) : askMirror((q) => handle(q, site), SITE_BASE_URL, r), askOracle(origin, SITE_BASE_URL, r)]);
    return { r, verdict: judge(r, mirror, oracle) };
  });
  const tally = new Map<string, number>();
  for (const { verdict } of verdicts) {
    const key = verdict.kind === 'design' ? `by design: ${verdict.reason} (${DESIGN[verdict.reason]})` : verdict.kind === 'refused' ? `refused: ${verdict.reason}` : verdict.kind;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  const kinds = ['same', 'design', 'refused', 'different'] as const;
  console.log(`${requests.length} requests: ${kinds.map((k) => `${k} ${verdicts.filter((v) => v.verdict.kind === k).length}`).join(', ')}`);
  for (const [key, n] of [...tally].sort()) console.log(`  ${String(n).padStart(5)}  ${key}`);
  const different = verdicts.filter((v) => v.verdict.kind === 'different');
  for (const { r, verdict } of different.slice(0, Number(values.show))) {
    console.log(`DIFFERENT ${r.method ?? 'GET'} ${r.target}${r.accept ? ` [Accept: ${r.accept}]` : ''}\n  ${(verdict as { why: string }).why}`);
  }
  process.exitCode = different.length ? 1 : 0;
} finally {
  await started?.stop();
  await server?.stop();
  if (view) rmSync(view, { recursive: true, force: true });
}
