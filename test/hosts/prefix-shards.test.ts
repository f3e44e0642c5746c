// A site served under a path prefix (/jaspar/) with the sharded layout of a
// release too large for flat folders (routes/shard.ts), on the real nginx,
// Caddy and Apache: the configs find the files where routes/ puts them. The
// site is a small tree written here at the paths routes/ gives (each file
// holds its own path), so no full build of a 10x release is needed.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorFiles } from '../../generator/hosting/rules.ts';
import { serverConfigs } from '../../generator/hosting/servers.ts';
import type { Layout } from '../../generator/routes/shard.ts';
import { detailDir, errorPaths, listDir, outputPath, versionsDir } from '../../generator/routes/urls.ts';
import { startSiteServer, type RunningServer } from '../support/servers.ts';

const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
const PREFIX = '/jaspar';

function writeSite(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const format of ['json', 'jaspar', 'api'] as const) {
    files.set(outputPath(detailDir(SHARDED, 'MA0004.1'), format), '');
    files.set(outputPath(versionsDir(SHARDED, 'MA0004'), format), '');
    for (const page of [1, 2]) files.set(outputPath(listDir(page), format), '');
  }
  for (const [file] of serverConfigs({ prefix: PREFIX, layout: SHARDED, pageCount: 2, year: 2024 })) files.set(file, '');
  const contents = new Map(serverConfigs({ prefix: PREFIX, layout: SHARDED, pageCount: 2, year: 2024 }));
  for (const [file, body] of errorFiles({ year: 2024 })) contents.set(file.slice(1), body);
  contents.set(errorPaths.notFound.slice(1), '{"detail":"Not found."}');
  contents.set(errorPaths.invalidPage.slice(1), '{"detail":"Invalid page."}');
  contents.set('404.html', '{"detail":"Not found."}');
  contents.set('index.html', 'home\n');
  for (const file of files.keys()) if (!contents.has(file)) contents.set(file, `file ${file}\n`);
  for (const [file, body] of contents) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
  return contents;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-prefix-shards-'));
// Readable by others: Apache started as root serves as "nobody".
chmodSync(root, 0o755);
const site = path.join(root, 'site');
afterAll(() => rm(root, { recursive: true, force: true }));

describe.each(['nginx', 'caddy', 'apache'] as const)('%s, prefix /jaspar, sharded folders', (server) => {
  let running: RunningServer | undefined;
  let contents: Map<string, string>;
  beforeAll(async () => {
    contents = writeSite(site);
    running = await startSiteServer(server, site);
  });
  afterAll(async () => {
    await running?.stop();
  });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${running!.origin}${p}`, { redirect: 'manual', headers });
  const body = (file: string) => contents.get(file);

  const detailJaspar = outputPath(detailDir(SHARDED, 'MA0004.1'), 'jaspar');
  const detailJson = outputPath(detailDir(SHARDED, 'MA0004.1'), 'json');
  const versionsJson = outputPath(versionsDir(SHARDED, 'MA0004'), 'json');
  const page2 = outputPath(listDir(2), 'json');

  it.each([
    [`${PREFIX}/api/v1/matrix/MA0004.1/?format=jaspar`, detailJaspar],
    [`${PREFIX}/api/v1/matrix/MA0004.1`, detailJson],
    [`${PREFIX}/api/v1/matrix/MA0004.1.json`, detailJson],
    [`${PREFIX}/api/v1/matrix/MA0004/versions/`, versionsJson],
    [`${PREFIX}/api/v1/matrix/?format=json&page=2`, page2],
    [`${PREFIX}//api/v1/matrix/?page=2`, page2],
  ])('%s answers %s', async (url, file) => {
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body(file));
  });

  it('answers a page past the end with "Invalid page." and an unknown matrix with "Not found."', async () => {
    const past = await get(`${PREFIX}/api/v1/matrix/?page=3`);
    expect([past.status, await past.text()]).toEqual([404, '{"detail":"Invalid page."}']);
    const unknown = await get(`${PREFIX}/api/v1/matrix/MA9999.1/`);
    expect([unknown.status, await unknown.text()]).toEqual([404, '{"detail":"Not found."}']);
  });

  it('redirects page sizes over 1000 under the prefix', async () => {
    const response = await get(`${PREFIX}/api/v1/matrix/?page_size=5000&format=json`);
    expect(response.status).toBe(301);
    const location = new URL(response.headers.get('location')!, running!.origin);
    expect(location.pathname).toBe(`${PREFIX}/api/v1/matrix/`);
    expect(Object.fromEntries(location.searchParams)).toEqual({ page_size: '1000', format: 'json' });
  });

  it('answers nothing outside the prefix', async () => {
    expect((await get('/api/v1/matrix/?page=2')).status).toBe(404);
    expect((await get('/index.html')).status).toBe(404);
    const home = await get(`${PREFIX}/`);
    expect([home.status, await home.text()]).toEqual([200, 'home\n']);
  });
});
