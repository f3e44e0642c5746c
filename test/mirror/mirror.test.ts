// The offline mirror end to end: a small fixture built twice gives the same
// archive bytes; the archive unpacks (system tar) into a mirror that
// verifies, serves with http-server and browses; verify reports a deleted,
// a changed and an added file by path. The full site of the global setup is
// checked the same way.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { writeMirror } from '../../generator/write/mirror.ts';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from '../../generator/mirror/layout.ts';
import { listSite, manifestLine, parseManifest, sha256 } from '../../generator/mirror/manifest.ts';
import { contentMtime } from '../../generator/mirror/tar.ts';
import { intact, verifyMirror } from '../../generator/mirror/verify.ts';
import { makeRelease } from '../support/fixtures.ts';
import { runScript } from '../support/run.ts';
import { get, startHttpServer, type RunningServer } from '../support/servers.ts';
import { readArchive } from './tar-reader.ts';
import { launchBrowser, openPage, runAxe } from '../support/browser.ts';
import { formatBytes } from '../../generator/pages/downloads.ts';

const temp = mkdtempSync(path.join(os.tmpdir(), 'jaspar-mirror-'));
afterAll(() => rm(temp, { recursive: true, force: true }));

function unpack(archive: string): string {
  const into = mkdtempSync(path.join(temp, 'unpacked-'));
  execFileSync('tar', ['-xzf', archive, '-C', into]);
  return path.join(into, ARCHIVE_FOLDER);
}

/** npm run verify -- DIR, as a user runs it (without npm's banner). */
const verifyCli = (dir: string) => runScript('scripts/verify.ts', [dir]);

describe('a small fixture', () => {
  const data = makeRelease();
  const one = path.join(temp, 'one');
  const two = path.join(temp, 'two');
  const options = (outDir: string) => ({ dataDir: data, outDir, baseUrl: 'http://localhost:8080' });

  beforeAll(async () => {
    await build(options(one));
    await build(options(two));
  }, 120_000);
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it('two builds give the same archive and manifest bytes', () => {
    const a = readFileSync(path.join(one, rel(ARCHIVE)));
    expect(a.equals(readFileSync(path.join(two, rel(ARCHIVE))))).toBe(true);
    expect(readFileSync(path.join(one, rel(MANIFEST)), 'utf8')).toBe(readFileSync(path.join(two, rel(MANIFEST)), 'utf8'));
    // gzip header: no name, no mtime, OS 3 (Unix).
    expect([...a.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, a[8], 3]);
  });

  it('the manifest lists every file of the site but the archive and its checksum, with their SHA-256; the archive has a checksum file of its own', () => {
    const manifest = parseManifest(readFileSync(path.join(one, rel(MANIFEST)), 'utf8'));
    const { files } = listSite(one);
    expect([...manifest.keys()].sort()).toEqual(files.filter((f) => ![rel(MANIFEST), rel(ARCHIVE), rel(ARCHIVE_SUM)].includes(f)).sort());
    expect(manifest.has('.nojekyll') && manifest.has('README.md') && manifest.has('serve.mjs')).toBe(true);
    expect(readFileSync(path.join(one, rel(ARCHIVE_SUM)), 'utf8')).toBe(manifestLine('jaspar-api-mirror.tar.gz', sha256(readFileSync(path.join(one, rel(ARCHIVE))))));
    // sha256sum itself, as a user runs it: beside the archive, and at the site's root.
    execFileSync('sha256sum', ['-c', '--quiet', path.basename(ARCHIVE_SUM)], { cwd: path.join(one, 'download') });
    execFileSync('sha256sum', ['-c', '--quiet', rel(MANIFEST)], { cwd: one });
    expect(manifest.get('index.html')).toBe(sha256(readFileSync(path.join(one, 'index.html'))));
  });

  it('the archive holds every file of the site but itself and its checksum, in one folder, owned by 0:0 with fixed modes, each file\'s time from its bytes', () => {
    const listing = execFileSync('tar', ['-tvzf', path.join(one, rel(ARCHIVE)), '--numeric-owner'], { encoding: 'utf8' }).trim().split('\n');
    const names = listing.map((l) => l.slice(l.indexOf(`${ARCHIVE_FOLDER}/`)).replace(/ link to .*$/, ''));
    const files = names.filter((n) => !n.endsWith('/')).map((n) => n.slice(ARCHIVE_FOLDER.length + 1));
    expect(files.sort()).toEqual(listSite(one).files.filter((f) => f !== rel(ARCHIVE) && f !== rel(ARCHIVE_SUM)).sort());
    expect(names[0]).toBe(`${ARCHIVE_FOLDER}/`);
    expect(names[names.length - 1]).toBe(`${ARCHIVE_FOLDER}/${rel(MANIFEST)}`);
    for (const line of listing) expect(line).toMatch(/^(-rw-r--r--|hrw-r--r--|drwxr-xr-x) 0\/0 +\d+ \d{4}-\d\d-\d\d \d\d:\d\d /);
    // Copies of a file (a first page and its folder's index, a base id and its latest version) are hard links.
    expect(listing.filter((l) => l.startsWith('h')).length).toBeGreaterThan(0);
    for (const line of listing.filter((l) => l.startsWith('d'))) expect(line).toMatch(/ 1985-10-26 /);
  });

  it('unpacks into an empty folder that verifies (sha256sum too); its manifest is the site\'s', async () => {
    const mirror = unpack(path.join(one, rel(ARCHIVE)));
    const report = verifyMirror(mirror);
    expect(intact(report)).toBe(true);
    expect(readFileSync(path.join(mirror, rel(MANIFEST)), 'utf8')).toBe(readFileSync(path.join(one, rel(MANIFEST)), 'utf8'));
    execFileSync('sha256sum', ['-c', '--quiet', rel(MANIFEST)], { cwd: mirror });
    expect(existsSync(path.join(mirror, '.nojekyll'))).toBe(true);
    const cli = await verifyCli(mirror);
    expect(cli.status).toBe(0);
    expect(cli.stdout.trim().split('\n')).toHaveLength(1);
    expect(cli.stdout).toContain('intact');
  });

  it('verify reports a deleted, a changed and an added file by path, and exits 1', async () => {
    const mirror = unpack(path.join(one, rel(ARCHIVE)));
    unlinkSync(path.join(mirror, 'api/v1/matrix/MA0004.1/index.json'));
    const logo = path.join(mirror, 'static/logos/svg/MA0004.1.svg');
    const bytes = readFileSync(logo);
    bytes[100] ^= 1;
    writeFileSync(logo, bytes);
    writeFileSync(path.join(mirror, 'api/v1/matrix/extra.json'), '{}');
    writeFileSync(path.join(mirror, '.build-state'), 'ignored: build state at the root'); // not reported
    const cli = await verifyCli(mirror);
    expect(cli.status).toBe(1);
    expect(cli.stdout.split('\n').filter(Boolean).sort()).toEqual(
      ['missing  api/v1/matrix/MA0004.1/index.json', 'altered  static/logos/svg/MA0004.1.svg', 'extra    api/v1/matrix/extra.json'].sort(),
    );
    expect(cli.stderr).toContain('1 missing, 1 altered, 1 extra');
  });

  it('verify checks the built site too, the archive included', async () => {
    expect(intact(verifyMirror(one))).toBe(true);
    const copy = mkdtempSync(path.join(temp, 'site-'));
    execFileSync('cp', ['-a', `${one}/.`, copy]);
    appendFileSync(path.join(copy, rel(ARCHIVE)), 'x');
    expect(verifyMirror(copy).altered).toEqual([rel(ARCHIVE)]);
    expect((await verifyCli(path.join(temp, 'nowhere'))).status).toBe(2);
  });

  it('keeps the archive when the site did not change, rewrites it when a file did', async () => {
    const site = mkdtempSync(path.join(temp, 'again-'));
    execFileSync('cp', ['-a', `${one}/.`, site]);
    writeFileSync(path.join(site, '.build-state'), 'the incremental writer\'s state: not part of the mirror');
    const before = statSync(path.join(site, rel(ARCHIVE))).mtimeMs;
    const kept = await writeMirror(site);
    expect(kept.written).toBe(false);
    expect(statSync(path.join(site, rel(ARCHIVE))).mtimeMs).toBe(before);
    appendFileSync(path.join(site, '404.html'), '\n');
    const rewritten = await writeMirror(site);
    expect(rewritten.written).toBe(true);
    expect(rewritten.archiveSha256).not.toBe(kept.archiveSha256);
    expect(intact(verifyMirror(site))).toBe(true);
    expect(existsSync(path.join(site, '.build-state'))).toBe(true);
  });

  describe('served with http-server from the unpacked folder', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startHttpServer(unpack(path.join(one, rel(ARCHIVE))));
    });
    afterAll(() => server?.stop());

    it('answers path URLs, the pages for people and the downloads page', async () => {
      const json = await get(`${server.origin}/api/v1/matrix/MA0004.1/index.json`);
      expect(json.status).toBe(200);
      expect(JSON.parse(json.body.toString()).matrix_id).toBe('MA0004.1');
      const home = await get(`${server.origin}/`);
      expect(home.body.toString()).toContain('href="/download/"');
      const list = await get(`${server.origin}/api/v1/matrix/page/1/`);
      expect(list.type).toBe('text/html');
      const downloads = (await get(`${server.origin}/download/`)).body.toString();
      for (const href of [...downloads.matchAll(/href="(\/download\/[^"]+)"/g)].map((m) => m[1])) {
        const status = (await get(`${server.origin}${href}`)).status;
        // The archive and its checksum are not part of the unpacked mirror; everything else the page links is.
        expect(status, href).toBe(href === ARCHIVE || href === ARCHIVE_SUM ? 404 : 200);
      }
      expect((await get(`${server.origin}/download/all/JASPAR2024_all_matrices_meme.txt`)).body.toString()).toMatch(/^MEME version 4/);
    });

    it('the downloads page shows the sizes it asks for in a browser, passes axe, and is linked from the header', async () => {
      const site = await startHttpServer(one);
      const browser = await launchBrowser();
      try {
        const sizes = async (origin: string) => {
          const watched = await openPage(browser);
          await watched.page.goto(`${origin}/api/v1/matrix/page/1/`);
          await watched.page.getByRole('link', { name: 'Downloads' }).click();
          await watched.page.waitForURL(`${origin}/download/`);
          await watched.page.waitForFunction(() => [...document.querySelectorAll('[data-size-of]')].every((e) => !e.textContent!.includes('JavaScript')));
          const shown = await watched.page.$$eval('[data-size-of]', (cells) => cells.map((c) => c.textContent));
          const axe = await runAxe(watched.page);
          await watched.close();
          return { shown, serious: axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id) };
        };
        const unpacked = await sizes(server.origin);
        expect(unpacked.shown[0]).toBe('not part of an unpacked mirror');
        expect(unpacked.shown[1]).toMatch(/^\d+\.\d kB$/);
        expect(unpacked.serious).toEqual([]);
        const served = await sizes(site.origin);
        expect(served.shown[0]).toBe(formatBytes(statSync(path.join(one, rel(ARCHIVE))).size));
      } finally {
        await browser.close();
        await site.stop();
      }
    });
  });
});

describe('the full site (global setup build)', () => {
  const siteDir = inject('siteDir');

  it('has an archive and a manifest that verify; the archive holds every file with the listed bytes, then the manifest', async () => {
    // npm run verify, as a user runs it: in its own process, as hashing the full site here would block the worker (test/support/event-loop.ts).
    const verify = await verifyCli(siteDir);
    expect(verify.status, `${verify.stdout.split('\n').slice(0, 10).join('\n')}\n${verify.stderr}`).toBe(0);
    expect(verify.stdout).toContain(': intact, all ');
    const archive = path.join(siteDir, rel(ARCHIVE));
    const manifestText = readFileSync(path.join(siteDir, rel(MANIFEST)), 'utf8');
    const manifest = parseManifest(manifestText);
    // Read member by member (unpacking the full site to disk takes minutes on a busy machine; the fixture above is unpacked by tar).
    const seen: string[] = [];
    let bytes = 0;
    let inner = '';
    const wrong: string[] = [];
    // Each file's hash and size, for the hard links to it: a copy is a link to the first file of its bytes.
    const files = new Map<string, { hex: string; size: number }>();
    let links = 0;
    await readArchive(archive, (m) => {
      expect(m.path.startsWith(`${ARCHIVE_FOLDER}/`)).toBe(true);
      expect([m.uid, m.gid]).toEqual([0, 0]);
      if (m.type === '1') {
        const target = files.get(m.linkname);
        const file = m.path.slice(ARCHIVE_FOLDER.length + 1);
        links++;
        seen.push(file);
        if (!target || manifest.get(file) !== target.hex || m.mtime !== contentMtime(target.hex) || m.content.length !== 0) wrong.push(file);
        else bytes += target.size;
        return;
      }
      if (m.type !== '0') return;
      const hex = sha256(m.content);
      expect(m.mtime).toBe(contentMtime(hex));
      expect(files.has(m.path)).toBe(false);
      files.set(m.path, { hex, size: m.content.length });
      const file = m.path.slice(ARCHIVE_FOLDER.length + 1);
      seen.push(file);
      bytes += m.content.length;
      if (file === rel(MANIFEST)) inner = m.content.toString('utf8');
      else if (manifest.get(file) !== sha256(m.content)) wrong.push(file);
    });
    expect(wrong).toEqual([]);
    // No two file entries of the same bytes: every copy is a link.
    expect(new Set([...files.values()].map((f) => f.hex)).size).toBe(files.size);
    expect(links).toBeGreaterThan(0);
    expect(seen[seen.length - 1]).toBe(rel(MANIFEST));
    expect(seen.slice(0, -1)).toEqual([...manifest.keys()]);
    // The manifest inside is the site's.
    expect(inner).toBe(manifestText);
    process.stdout.write(
      `full site: archive ${(statSync(archive).size / 1e6).toFixed(1)} MB; unpacks to ${seen.length} files (${links} of them hard links), ${(bytes / 1e6).toFixed(1)} MB; npm run verify: ${verify.stdout.trim()}\n`,
    );
  }, 180_000);
});
