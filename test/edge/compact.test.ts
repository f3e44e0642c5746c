// The compact build (--profile compact, issue 14): it fits Cloudflare's
// limits, and the edge handler over it answers every file the full build
// has and it lacks with the full build's bytes (compact-compare.ts). A small
// release is compared file by file; the full release (the global setup's
// build, inject('siteDir')) every file of the smaller kinds and a spread
// sample (one in SAMPLE, coprime with the nine formats) of the larger ones.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { forgetIndexes, handle } from '../../generator/edge/handler.ts';
import { CLOUDFLARE_ASSETS } from '../support/edge-servers.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT, SITE_BASE_URL, dataDir } from '../support/paths.ts';
import { problems } from '../support/servers.ts';
import { compareCompact, siteFiles, summary } from './compact-compare.ts';
import { folderSite } from './folder-site.ts';

const run = promisify(execFile);
const SAMPLE = 7;
/** Every kind of file the handler renders for a compact build of the 2024 release. */
const KINDS = [
  'api/v1/collections', 'api/v1/index.html', 'api/v1/index.js', 'api/v1/index.json', 'api/v1/index.yaml', 'api/v1/releases', 'api/v1/sites',
  'api/v1/species', 'api/v1/taxon', 'matrix/base id', 'matrix/detail', 'matrix/list', 'matrix/versions', 'matrix/views', 'static/logos/svg',
];

async function build(data: string, out: string, profile: 'full' | 'compact'): Promise<void> {
  const env = { ...process.env };
  for (const key of ['BASE_URL', 'NETLIFY', 'URL', 'JASPAR_DATA']) delete env[key];
  await run(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), '--data', data, '--out', out, '--base-url', SITE_BASE_URL, '--profile', profile], {
    cwd: PROJECT_ROOT,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
}

describe('compact build', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-compact-'));
  const fixture = makeRelease();
  afterAll(() => {
    forgetIndexes();
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
    expect(c.compared).toBe(c.fullFiles - c.compactFiles - 2); // all but the archive and its manifest
    expect([...c.kinds.keys()].sort()).toEqual(KINDS);
  });

  it('a full build answers a missing file with the host\'s 404; a compact one, a path the full build has not, too', async () => {
    const full = path.join(root, 'small-full');
    const compact = path.join(root, 'small-compact');
    const file = 'api/v1/matrix/MA0004.1/index.json';
    unlinkSync(path.join(full, file));
    forgetIndexes();
    expect((await handle(new Request(`${SITE_BASE_URL}/${file}`), folderSite(full))).status).toBe(404);
    forgetIndexes();
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

  it('full release: fits Cloudflare\'s free plan, and the handler answers as the full build\'s files', { timeout: 900_000 }, async () => {
    const compact = path.join(root, 'compact');
    await build(dataDir(), compact, 'compact');
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
