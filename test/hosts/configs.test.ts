// The server configs without a build: the routing data follows routes/
// (flat and sharded layouts), and each printed config passes its own
// server's check (nginx -t, caddy validate, apache2 -t), with and without a
// path prefix. The servers answering from them: conformance.test.ts and
// prefix-shards.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aboveMaxRegex, serverRouting, type Template } from '../../generator/hosting/routing.ts';
import { serverConfigs } from '../../generator/hosting/servers.ts';
import { FLAT, type Layout } from '../../generator/routes/shard.ts';
import { detailDir, listDir, versionsDir } from '../../generator/routes/urls.ts';
import { apacheMainConf, findBinary, installHint, nginxMainConf, type ServerName } from '../../scripts/serve.ts';

const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
const fill = (t: Template, slots: Record<string, string>) => t.map((p) => (typeof p === 'string' ? p : slots[p.slot])).join('');

describe('routing data', () => {
  it.each([['flat', FLAT], ['sharded', SHARDED]] as const)('derives the id folders from routes/ (%s)', (_name, layout) => {
    const r = serverRouting({ prefix: '', layout, pageCount: 3, year: 2024 });
    const slots = { id: 'MA0004.1', shard: 'MA0004.1'.slice(0, layout.shard) };
    expect(fill(r.keyed.find((k) => k.name === 'matrix')!.dir, slots)).toBe(detailDir(layout, 'MA0004.1'));
    expect(fill(r.keyed.find((k) => k.name === 'versions')!.dir, { id: 'MA0004', shard: 'MA0004'.slice(0, layout.shard) })).toBe(versionsDir(layout, 'MA0004'));
  });

  it('composes a list folder from the segments routes/ writes', () => {
    const r = serverRouting({ prefix: '', layout: FLAT, pageCount: 3, year: 2024 });
    const composed = `${r.lists[0].base}${r.filterSegment.collection.join('CORE')}${r.filterSegment.version.join('latest')}${r.pageSizeSegment.join('1000')}${r.pageSegment.join('2')}`;
    expect(composed).toBe(listDir(2, 1000, { collection: 'CORE', version: 'latest' }));
  });

  it('refuses a prefix that is not a plain path', () => {
    expect(() => serverRouting({ prefix: '/a b', layout: FLAT, pageCount: 1, year: 2024 })).toThrow(/prefix/);
  });

  it.each([
    ['1001', true], ['2000', true], ['5000', true], ['10000', true], ['99999', true], ['1100', true],
    ['1000', false], ['999', false], ['10', false], ['0', false], ['0100', false], ['abc', false],
  ])('page_size %s is above 1000: %s', (value, above) => {
    expect(new RegExp(aboveMaxRegex(1000)).test(value)).toBe(above);
  });
});

/** Each server's own configuration check over configs printed for `layout` and `prefix`. */
function check(server: ServerName, dir: string, withNode = false): { status: number | null; output: string } {
  const site = path.join(dir, 'site');
  const tmp = path.join(dir, `tmp-${server}${withNode ? '-node' : ''}`);
  mkdirSync(tmp, { recursive: true });
  // withNode: the configuration with the Node server behind (generator/hosting/node-proxy.ts), as --with-node writes it.
  const o = { dir: site, port: 18190, host: '127.0.0.1', ...(withNode ? { node: 18191 } : {}) };
  let run;
  if (server === 'nginx') {
    writeFileSync(path.join(tmp, 'nginx.conf'), nginxMainConf(o, tmp));
    run = spawnSync(findBinary('nginx')!, ['-t', '-q', '-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-e', 'stderr'], { encoding: 'utf8' });
  } else if (server === 'caddy') {
    run = spawnSync(findBinary('caddy')!, ['validate', '--config', path.join(site, withNode ? '_hosting/Caddyfile.node' : '_hosting/Caddyfile'), '--adapter', 'caddyfile'], {
      encoding: 'utf8', env: { ...process.env, JASPAR_SITE: site, HOME: tmp, XDG_DATA_HOME: tmp, XDG_CONFIG_HOME: tmp },
    });
  } else {
    writeFileSync(path.join(tmp, 'httpd.conf'), apacheMainConf(o, tmp));
    run = spawnSync(findBinary('apache')!, ['-t', '-f', path.join(tmp, 'httpd.conf')], { encoding: 'utf8' });
  }
  return { status: run.status, output: `${run.stdout}${run.stderr}${run.error?.message ?? ''}` };
}

describe.each([
  ['flat, no prefix', FLAT, ''],
  ['sharded, prefix /jaspar', SHARDED, '/jaspar'],
] as const)('printed configs (%s)', (_name, layout, prefix) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-configs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [file, content] of serverConfigs({ prefix, layout, pageCount: 528, year: 2024 })) {
    mkdirSync(path.dirname(path.join(dir, 'site', file)), { recursive: true });
    writeFileSync(path.join(dir, 'site', file), content);
  }

  it.each(['nginx', 'caddy', 'apache'] as const)('%s accepts its config, also with the Node server behind', (server) => {
    if (!findBinary(server)) throw new Error(`${server} is not installed: ${installHint(server)}`);
    for (const withNode of [false, true]) {
      const result = check(server, dir, withNode);
      expect(result.status, `${withNode ? 'with the Node server: ' : ''}${result.output}`).toBe(0);
    }
  });
});
