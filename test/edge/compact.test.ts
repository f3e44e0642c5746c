// The compact build (--profile compact, issue 14): it fits Cloudflare's
// limits, and the edge handler over it answers every file the full build
// has and it lacks with the full build's bytes (compact-compare.ts). A small
// release is compared file by file; the full release (the global setup's
// build, inject('siteDir')) every file of the smaller kinds and a spread
// sample (one in SAMPLE, coprime with the nine formats) of the larger ones.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createHandler } from '../../generator/edge/handler.ts';
import { CLOUDFLARE_ASSETS, freePortInRange } from '../support/edge-servers.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT, SITE_BASE_URL, siteDataDirs } from '../support/paths.ts';
import { onOtherPorts } from '../support/process.ts';
import { buildOk } from '../support/run.ts';
import { problems } from '../support/servers.ts';
import { NOT_RENDERED, compareCompact, siteFiles, summary } from './compact-compare.ts';
import { folderSite } from './folder-site.ts';

const SAMPLE = 7;
/** Every kind of file the handler renders for a compact build of the 2024 release. */
const KINDS = [
  'api/v1/collections', 'api/v1/index.html', 'api/v1/index.js', 'api/v1/index.json', 'api/v1/index.yaml', 'api/v1/releases', 'api/v1/sites',
  'api/v1/species', 'api/v1/taxon', 'matrix/base id', 'matrix/detail', 'matrix/list', 'matrix/versions', 'matrix/views', 'static/logos/svg',
];

async function build(data: string | string[], out: string, profile: 'full' | 'compact'): Promise<void> {
  await buildOk([...[data].flat().flatMap((d) => ['--data', d]), '--out', out, '--base-url', SITE_BASE_URL, '--profile', profile]);
}

type Served = { origin: string; output: () => string; stop: () => Promise<void> };

/**
 * `npm run serve -- ARGS` in its own process group until stop(); ready when
 * `ready` answers 200. Started again on other ports on a port clash
 * (test/support/process.ts onOtherPorts): two are started side by side
 * below, and netlify dev's static server port is chosen by serve.ts.
 */
const serve = (args: string[], ready: string): Promise<Served> => onOtherPorts(() => serveOnce(args, ready));

async function serveOnce(args: string[], ready: string): Promise<Served> {
  const port = await freePortInRange();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/serve.ts'), ...args, '--port', String(port)], {
    cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      process.kill(-child.pid!, 'SIGKILL'); // stragglers of the group (workerd, deno)
    } catch {
      // gone
    }
  };
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run serve -- ${args.join(' ')} exited ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(`${origin}${ready}`, { signal: AbortSignal.timeout(20_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not yet
    }
    if (performance.now() - started > 120_000) {
      await stop();
      throw new Error(`npm run serve -- ${args.join(' ')} did not answer ${ready} in 120 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { origin, output: () => output, stop };
}

describe('compact build', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-compact-'));
  const fixture = makeRelease();
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(fixture, { recursive: true, force: true });
  });

  it('small release: every file the full build has and the compact one lacks comes from the handler, byte for byte', { timeout: 120_000 }, async () => {
    const full = path.join(root, 'small-full');
    const compact = path.join(root, 'small-compact');
    await build(fixture, full, 'full');
    await build(fixture, compact, 'compact');
    const c = await compareCompact(full, compact);
    process.stdout.write(`small release: ${summary(c)}\n`);
    expect(c.extra, 'files only the compact build has').toEqual([]);
    expect(c.changedKept, 'kept files that differ from the full build').toEqual([]);
    expect(c.different, problems(c.different)).toEqual([]);
    expect(c.compared).toBe(c.fullFiles - c.compactFiles - NOT_RENDERED.size); // all but the archive, its checksum and the manifest
    expect([...c.kinds.keys()].sort()).toEqual(KINDS);
    // The pages that offer the archive say a compact build has none; the full build's offer it.
    const page = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');
    expect(page(full, 'index.html')).toContain('this site as one archive');
    expect(page(compact, 'index.html')).not.toContain('this site as one archive');
    expect(page(compact, 'index.html')).toContain('This compact build has no archive of the site');
    expect(page(compact, 'download/index.html')).toContain('there is no archive of the whole site here');
  });

  it('a full build answers a missing file with the host\'s 404; a compact one, a path the full build has not, too', async () => {
    const full = path.join(root, 'small-full');
    const compact = path.join(root, 'small-compact');
    const file = 'api/v1/matrix/MA0004.1/index.json';
    unlinkSync(path.join(full, file));
    expect((await createHandler()(new Request(`${SITE_BASE_URL}/${file}`), folderSite(full))).status).toBe(404);
    // A new handler: the full build's indexes are not the compact one's.
    const handle = createHandler();
    const site = folderSite(compact);
    for (const missing of [
      'api/v1/matrix/MA9999.1/index.json', // no such matrix
      'api/v1/matrix/MA0004.1/index.xml', // no such format
      'api/v1/matrix/page/2/index.json', // past the end
      'api/v1/matrix/page_size/10/page/1/index.json', // not the folder of the default page size
      'api/v1/matrix/page_size/25/page/1/index.bed.txt', // not pre-rendered in that format
      'api/v1/matrix/tax_group/plants/collection/CORE/page/1/index.json', // filters out of order
      'api/v1/matrix/name/x/page/1/index.json', // not a pre-rendered filter
      'api/v1/matrix/index.json', // the list folder has its page for people only
      'api/v1/sites/MA0004.1/index.json', // no binding sites
      'static/logos/svg/MA9999.1.svg',
    ]) {
      const response = await handle(new Request(`${SITE_BASE_URL}/${missing}`), site);
      expect(response.status, missing).toBe(404);
    }
  });

  it('npm run serve -- --server cloudflare: wrangler dev with the Worker answers the compact build\'s missing files as the full build has them', { timeout: 180_000 }, async () => {
    const full = path.join(root, 'small-full');
    const server = await serve(['--server', 'cloudflare', '--dir', path.join(root, 'small-compact')], '/api/v1/');
    try {
      for (const file of ['api/v1/matrix/MA0014.2/index.bed.txt', 'api/v1/matrix/page/1/index.meme.txt', 'api/v1/species/index.json', 'api/v1/matrix/collection/CORE/page/1/index.jaspar.txt', 'static/logos/svg/MA0004.1.svg']) {
        const response = await fetch(`${server.origin}/${file}`);
        expect(response.status, file).toBe(200);
        expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(path.join(full, file))), file).toBe(true);
      }
      // And what only the handler answers: a page size no file has.
      const list = (await (await fetch(`${server.origin}/api/v1/matrix/?page_size=4&page=2`)).json()) as { count: number; results: unknown[] };
      expect([list.count, list.results.length]).toEqual([9, 4]);
    } finally {
      await server.stop();
    }
  });

  it('npm run serve -- --server netlify: netlify dev with the edge function (and without it: --edge off)', { timeout: 240_000 }, async () => {
    const full = path.join(root, 'small-full');
    // Both side by side: each netlify dev mostly waits while it starts (about 30 s each, one after the other).
    await Promise.all(['on', 'off'].map(async (edge) => {
      const server = await serve(['--server', 'netlify', '--dir', full, '--edge', edge], '/api/v1/');
      try {
        // A page size the files do not have: the edge function answers it; the rules alone have no file
        // for it (page sizes are a placeholder in the rules: hosting/rules.ts), so "Not found.".
        const body = await (await fetch(`${server.origin}/api/v1/matrix/?page_size=4&page=2`)).text();
        if (edge === 'on') expect((JSON.parse(body) as { results: unknown[] }).results.length, server.output()).toBe(4);
        else expect(JSON.parse(body), server.output()).toEqual({ detail: 'Not found.' });
      } finally {
        await server.stop();
      }
    }));
  });

  it('full release: fits Cloudflare\'s free plan, and the handler answers as the full build\'s files', { timeout: 900_000 }, async () => {
    const compact = path.join(root, 'compact');
    // The full site's releases (2024 and 2026 under /releases/2026/), as the global setup built them.
    await build(siteDataDirs(), compact, 'compact');
    const files = siteFiles(compact);
    const sizes = files.map((f) => statSync(path.join(compact, f)).size);
    const bytes = sizes.reduce((a, b) => a + b, 0);
    process.stdout.write(`compact build of the full release: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB, largest ${(Math.max(...sizes) / 1e6).toFixed(1)} MB\n`);
    expect(files.length).toBeLessThanOrEqual(CLOUDFLARE_ASSETS.maxFilesFree);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CLOUDFLARE_ASSETS.maxFileBytes);

    const c = await compareCompact(inject('siteDir'), compact, { sample: SAMPLE });
    process.stdout.write(`full release (one in ${SAMPLE} of each kind): ${summary(c)}\n`);
    expect(c.extra, 'files only the compact build has').toEqual([]);
    expect(c.changedKept, 'kept files that differ from the full build').toEqual([]);
    expect(c.different, problems(c.different)).toEqual([]);
    expect([...c.kinds.keys()].sort()).toEqual(KINDS);
  });
});
