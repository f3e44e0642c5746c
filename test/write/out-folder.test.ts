// --out safety (issue 15.1): the build writes only into a folder that is
// missing, empty or its own previous output, and refuses everything else
// before touching anything. Each refused case leaves the folder and
// everything around it byte-identical (a snapshot of the whole sandbox).
import { run } from '../support/run.ts';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT as GENERATOR_ROOT, build } from '../../generator/build.ts';
import { OutFolderError, guardOutDir } from '../../generator/write/guard.ts';
import { stateDir } from '../../generator/write/state.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { treeSnapshot } from '../support/tree.ts';

let sandbox: string;
let release: string;
const at = (...parts: string[]) => path.join(sandbox, ...parts);
const put = (file: string, text = 'keep me\n') => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'jaspar-out-guard-'));
  // A home folder holding a project checkout; the current folder is inside the project.
  put(at('home/.bashrc'));
  put(at('home/.ssh/id_ed25519'), 'secret\n');
  put(at('home/project/.git/HEAD'), 'ref: refs/heads/main\n');
  put(at('home/project/generator/cli.ts'), '// code\n');
  put(at('home/project/work/notes.txt'));
  put(at('release/matrices.csv'), 'matrix_id\n');
  put(at('release/matrices/MA0004.1.jaspar'), '>MA0004.1 Arnt\n');
  put(at('stuff/photo.jpg'), 'jpeg\n');
  put(at('file.txt'));
  mkdirSync(at('empty'));
  symlinkSync(at('home/project'), at('link-to-project'));
  symlinkSync(at('empty'), at('link-to-empty'));
  symlinkSync(at('release'), at('link-to-release'));
  release = makeRelease(['MA0004.1', 'MA0014.2']);
});

afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  rmSync(release, { recursive: true, force: true });
});

const context = () => ({ dataDir: at('release'), projectRoot: at('home/project'), cwd: at('home/project/work'), home: at('home') });

describe('refused output folders (guardOutDir)', () => {
  it.each([
    ['the root of the file system', () => '/', /is the root of the file system/],
    ['the home folder', () => at('home'), /is the home folder/],
    ['the current folder', () => at('home/project/work'), /is the current folder/],
    ['a parent of the current folder (the project)', () => at('home/project'), /holds the current folder/],
    ['the project folder', () => at('home/project'), /holds the current folder|is the project folder/],
    ['a folder holding the project and the release', () => sandbox, /holds the current folder/],
    ['a link to the project', () => at('link-to-project'), /is a link/],
    ['a path through a link to the project', () => at('link-to-project/work'), /is the current folder/],
    ['the release folder', () => at('release'), /is the release folder/],
    ['a link to the release folder', () => at('link-to-release'), /is a link/],
    ['a folder inside the release', () => at('release/matrices'), /is inside the release folder/],
    ['a new folder inside the release', () => at('release/site'), /is inside the release folder/],
    ['a new folder inside the release, through a link', () => at('link-to-release/site'), /is inside the release folder/],
    ['a file', () => at('file.txt'), /is a file, not a folder/],
    ['a link to an empty folder', () => at('link-to-empty'), /is a link/],
    ['a folder with files that is not a previous build', () => at('stuff'), /holds files and is not the output of a previous build/],
    ['an empty name', () => '', /no folder named/],
  ])('%s', (_name, outDir, message) => {
    const before = treeSnapshot(sandbox);
    const out = outDir();
    let error: unknown;
    try {
      guardOutDir(out, context());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OutFolderError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/^--out .+: .+ \(fix: .+\)$/);
    expect(treeSnapshot(sandbox)).toEqual(before);
  });

  it('refuses a project folder that holds no current folder, and anything holding a release elsewhere', () => {
    const elsewhere = { ...context(), cwd: os.tmpdir() };
    expect(() => guardOutDir(at('home/project'), elsewhere)).toThrow(/is the project folder/);
    expect(() => guardOutDir(at('home'), { ...elsewhere, home: '/nonexistent-home' })).toThrow(/holds the project folder/);
    expect(() => guardOutDir(at('outer'), { ...elsewhere, dataDir: at('outer/inner/release') })).toThrow(/holds the release folder/);
  });

  it('refuses a state folder beside the output that is a link', () => {
    mkdirSync(at('linked-state/site'), { recursive: true });
    symlinkSync(at('empty'), stateDir(at('linked-state/site')));
    expect(() => guardOutDir(at('linked-state/site'), context())).toThrow(/is a link \(fix: remove/);
  });

  it.each([
    ['a missing folder', 'new/public'],
    ['an empty folder', 'empty'],
  ])('accepts %s', (_name, rel) => {
    expect(() => guardOutDir(at(rel), context())).not.toThrow();
  });

  it('accepts a previous build, also one that was interrupted', () => {
    put(at('built/index.html'));
    put(path.join(stateDir(at('built')), 'state.tsv'), 'jaspar-static-api build state 1\nend\n');
    expect(() => guardOutDir(at('built'), context())).not.toThrow();
    put(at('half/index.html'));
    put(path.join(stateDir(at('half')), 'in-progress'), 'a build started\n');
    expect(() => guardOutDir(at('half'), context())).not.toThrow();
    // A state file of something else is not a build's.
    put(at('other/index.html'));
    put(path.join(stateDir(at('other')), 'state.tsv'), 'not a state\n');
    expect(() => guardOutDir(at('other'), context())).toThrow(OutFolderError);
  });
});

describe('build() refuses before anything else', () => {
  const options = (outDir: string) => ({ dataDir: release, outDir, baseUrl: 'http://localhost:8080', workers: 0 });

  it.each([
    ['a folder with files', () => at('stuff')],
    ['a file', () => at('file.txt')],
    ['the release folder', () => release],
    ['a folder inside the release', () => path.join(release, 'matrices')],
    ['a link to a folder', () => at('link-to-empty')],
  ])('%s: the folder and what is around it stay byte-identical', async (_name, outDir) => {
    const out = outDir();
    // The sandbox and the release hold every case's folder and its surroundings.
    // Beside the release (in the system's temporary folder, which other processes share): what is named after it (a state folder would be).
    const besideRelease = () => readdirSync(path.dirname(release)).filter((name) => name.includes(path.basename(release)));
    const before = [treeSnapshot(sandbox), treeSnapshot(release), besideRelease()];
    await expect(build(options(out))).rejects.toThrow(OutFolderError);
    expect([treeSnapshot(sandbox), treeSnapshot(release), besideRelease()]).toEqual(before);
  });

  it('the project itself, and the folder holding it', async () => {
    // Names only (the project and its parent are large): no state folder, nothing removed.
    const parent = path.dirname(GENERATOR_ROOT);
    const before = [readdirSync(parent).sort(), readdirSync(GENERATOR_ROOT).sort()];
    await expect(build(options(GENERATOR_ROOT))).rejects.toThrow(/is the project folder|is the current folder/);
    await expect(build(options(parent))).rejects.toThrow(/holds the/);
    expect([readdirSync(parent).sort(), readdirSync(GENERATOR_ROOT).sort()]).toEqual(before);
  }, 60_000);

  it('builds into a missing folder, then again into its own previous output', async () => {
    const out = at('site-out/public');
    const first = await build(options(out));
    expect(first.files).toBeGreaterThan(20);
    const again = await build(options(out));
    expect(again.upToDate).toBe(true);
  }, 120_000);
});

describe('the CLI', () => {
  it.each([[''], ['.']])('refuses --out %j in a project checkout, touching nothing', async (flag) => {
    const cwd = at('home/project');
    const before = treeSnapshot(sandbox);
    // tsx named by its path: the sandbox has no node_modules to find it from.
    const tsx = pathToFileURL(path.join(PROJECT_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const r = await run(process.execPath, ['--import', tsx, path.join(PROJECT_ROOT, 'generator/cli.ts'), '--data', release, '--out', flag], {
      cwd, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^build stopped: --out \.: is the current folder \(fix: name a new or empty folder/);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^Nothing was written; .+ is unchanged\.$/);
    expect(treeSnapshot(sandbox)).toEqual(before);
  }, 60_000);
});
