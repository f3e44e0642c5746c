// `npm run build` starts the CLI from a bundle of the generator (generator/start.mjs), not through tsx:
// the same site, byte for byte, as the sources run by tsx write; paths beside the sources (assets, the
// Node server's sources) are found from the bundle too; and the bundle is made again for other sources.
import { mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { buildOk, cliEnv, run, turn } from '../support/run.ts';
import { suiteFolders } from '../support/folders.ts';
import { listFiles } from '../support/tree.ts';

const { make: tempDir, keep } = suiteFolders();

const START = path.join(PROJECT_ROOT, 'generator/start.mjs');

describe('npm run build: the CLI started from its bundle (generator/start.mjs)', () => {
  it('writes the same site, byte for byte, as the sources run by tsx', async () => {
    const data = keep(makeRelease());
    const root = tempDir('jaspar-start-');
    const bundled = path.join(root, 'bundled');
    const sources = path.join(root, 'sources');
    const ran = await run(process.execPath, [START, '--data', data, '--out', bundled], { env: cliEnv() });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/^built \d+ matrices/m);
    await buildOk(['--data', data, '--out', sources]);
    const files = listFiles(sources);
    expect(listFiles(bundled)).toEqual(files);
    // serve.mjs (bundled at build time from generator/server/) and the stylesheet (generator/assets/) among them.
    expect(files).toEqual(expect.arrayContaining(['serve.mjs', 'static/api/site.css']));
    const differ: string[] = [];
    for (const [i, f] of files.entries()) {
      if (i % 500 === 499) await turn();
      if (!readFileSync(path.join(bundled, f)).equals(readFileSync(path.join(sources, f)))) differ.push(f);
    }
    expect(differ).toEqual([]);
  }, 300_000);

  it('keeps one bundle a source version and entry, named by their hash', async () => {
    const ran = await run(process.execPath, [START, '--help'], { env: cliEnv() });
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/^Usage: npm run build/);
    const { bundled } = await import(START) as { bundled: (entry: string) => Promise<Record<string, unknown>> };
    const build = await bundled('generator/build.ts');
    // Its own file's import.meta.url: the project root, not the bundle's folder.
    expect(build.PROJECT_ROOT).toBe(PROJECT_ROOT);
    const names = readdirSync(path.join(PROJECT_ROOT, '.cache/generator'));
    expect(names.filter((n) => /^cli-[0-9a-f]{20}\.mjs$/.test(n)).length).toBeGreaterThan(0);
    expect(names.filter((n) => /^build-[0-9a-f]{20}\.mjs$/.test(n)).length).toBeGreaterThan(0);
  }, 120_000);

  it('names a bundle by the content of every source, the package files and the entry point', async () => {
    const { sourcesDigest } = await import(START) as { sourcesDigest: (entry: string, root?: string) => string };
    const root = tempDir('jaspar-start-sources-');
    mkdirSync(path.join(root, 'generator/pipeline'), { recursive: true });
    writeFileSync(path.join(root, 'generator/cli.ts'), 'one');
    writeFileSync(path.join(root, 'generator/pipeline/render.ts'), 'abc');
    writeFileSync(path.join(root, 'package.json'), '{}');
    const first = sourcesDigest('generator/cli.ts', root);
    expect(sourcesDigest('generator/cli.ts', root)).toBe(first);
    expect(sourcesDigest('generator/build.ts', root)).not.toBe(first);
    // A file changed in place, its size the same.
    writeFileSync(path.join(root, 'generator/pipeline/render.ts'), 'abd');
    const changed = sourcesDigest('generator/cli.ts', root);
    expect(changed).not.toBe(first);
    writeFileSync(path.join(root, 'generator/pipeline/worker.ts'), '');
    const added = sourcesDigest('generator/cli.ts', root);
    expect(added).not.toBe(changed);
    writeFileSync(path.join(root, 'package-lock.json'), '{}');
    expect(sourcesDigest('generator/cli.ts', root)).not.toBe(added);
  });

  it('removes the bundles of earlier sources of the same entry point once an hour old, and no other file', async () => {
    const { pruneBundles } = await import(START) as { pruneBundles: (dir: string, kept: string, now?: number) => void };
    const dir = tempDir('jaspar-start-cache-');
    const names = ['cli-aaaaaaaaaaaaaaaaaaaa.mjs', 'cli-bbbbbbbbbbbbbbbbbbbb.mjs', 'cli-cccccccccccccccccccc.mjs', 'cli-dddddddddddddddddddd.mjs.4242', 'build-eeeeeeeeeeeeeeeeeeee.mjs'];
    for (const name of names) writeFileSync(path.join(dir, name), '');
    const now = Date.now();
    const twoHoursAgo = (now - 2 * 3_600_000) / 1000;
    // All old but b (made ten minutes ago) and the one kept (c).
    for (const name of ['cli-aaaaaaaaaaaaaaaaaaaa.mjs', 'cli-dddddddddddddddddddd.mjs.4242', 'build-eeeeeeeeeeeeeeeeeeee.mjs', 'cli-cccccccccccccccccccc.mjs']) utimesSync(path.join(dir, name), twoHoursAgo, twoHoursAgo);
    utimesSync(path.join(dir, 'cli-bbbbbbbbbbbbbbbbbbbb.mjs'), (now - 600_000) / 1000, (now - 600_000) / 1000);
    pruneBundles(dir, path.join(dir, 'cli-cccccccccccccccccccc.mjs'), now);
    expect(readdirSync(dir).sort()).toEqual(['build-eeeeeeeeeeeeeeeeeeee.mjs', 'cli-bbbbbbbbbbbbbbbbbbbb.mjs', 'cli-cccccccccccccccccccc.mjs']);
  });

  it("sets only V8 flags this Node's V8 knows, with values of their type (v8.setFlagsFromString ignores others without a word)", async () => {
    const { BUILD_V8_FLAGS, SMALL_SITE_V8_FLAGS } = await import(START) as { BUILD_V8_FLAGS: string[]; SMALL_SITE_V8_FLAGS: string[] };
    const ran = await run(process.execPath, ['--v8-options']);
    expect(ran.status).toBe(0);
    expect(BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    expect(SMALL_SITE_V8_FLAGS.length).toBeGreaterThan(0);
    // build.ts sets SMALL_SITE_V8_FLAGS back to 0 after a build: V8's own default for them.
    for (const flag of SMALL_SITE_V8_FLAGS) expect(ran.stdout, flag).toContain(`default: ${flag.replace(/=.*$/, '=0')}\n`);
    for (const flag of [...BUILD_V8_FLAGS, ...SMALL_SITE_V8_FLAGS]) {
      const [, name, value] = /^--([a-z0-9-]+)=(.*)$/.exec(flag) ?? [];
      expect(name, flag).toBeDefined();
      // --v8-options prints each flag as "  --name (what it does)" then "        type: int  default: --name=0".
      const type = new RegExp(`\\n  --${name} \\(.*\\)\\n\\s+type: (\\w+)`).exec(ran.stdout)?.[1];
      expect(type, `${name} among node --v8-options`).toBeDefined();
      if (type === 'int' || type === 'size_t') expect(value, flag).toMatch(/^\d+$/);
    }
  });
});
