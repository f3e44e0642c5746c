// A rebuild of an unchanged release does nothing; a changed matrix rewrites
// its own files, the pages that list it and the whole-release files, and
// nothing else keeps anything but its mtime. Run as a user runs it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS, addToFirstCount, makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { sourcesHash } from '../../generator/pipeline/fingerprint.ts';
import { readKept } from '../../generator/write/state.ts';
import { runCli } from '../support/run.ts';
import { listFiles } from '../support/tree.ts';

async function cli(data: string, out: string): Promise<string> {
  const r = await runCli(['--data', data, '--out', out, '--base-url', 'http://localhost:8080'], { timeout: 120_000 });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

const mtimes = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, statSync(path.join(dir, f)).mtimeMs]));

describe('rebuilding', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-rebuild-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('an unchanged release: up to date, nothing written', async () => {
    await cli(data, out);
    const before = mtimes(out);
    const stdout = await cli(data, out);
    expect(stdout).toMatch(/^built 9 matrices, .*\(up to date, nothing written\)/);
    expect(mtimes(out)).toEqual(before);
  }, 120_000);

  it('one matrix changed: its files, the lists that show it and the whole-release files', async () => {
    const before = mtimes(out);
    const file = path.join(data, 'matrices', 'MA0004.1.jaspar');
    addToFirstCount(file);
    const stdout = await cli(data, out);
    const rewritten = Object.entries(mtimes(out)).filter(([f, m]) => before[f] !== m).map(([f]) => f);
    // The count is the writer's: the mirror archive, its checksum and the manifest are written after it.
    const reported = Number(/\((\d+) written, 0 removed/.exec(stdout)?.[1]);
    expect(reported).toBeGreaterThanOrEqual(rewritten.length - 3);
    expect(reported).toBeLessThanOrEqual(rewritten.length);
    expect(rewritten).toContain('api/v1/matrix/MA0004.1/index.json');
    expect(rewritten).toContain('static/logos/svg/MA0004.1.svg');
    const expected = (f: string) =>
      /^api\/v1\/matrix\/MA0004(\.1)?\//.test(f) || // its detail, its base id's latest and versions
      f === 'static/logos/svg/MA0004.1.svg' ||
      /(^|\/)page\/\d+\//.test(f) || // list pages (any view) that show it
      /^api\/v1\/(collections|taxon|species)\/[^/]+\/index\./.test(f) || // a collection's, taxon's or species' first page
      f.startsWith('download/') || // bulk files, mirror archive and manifest
      f === '_edge/matrices.json'; // the edge handler's copy of every matrix's counts
    expect(rewritten.filter((f) => !expected(f))).toEqual([]);
    // Other matrices keep everything.
    expect(rewritten.filter((f) => f.includes('MA0002') || f.includes('MA0074'))).toEqual([]);
  }, 120_000);
});

// The folder as the previous build left it is checked on two threads (write/changes.ts): by both, with
// the release unchanged (unchangedSiteShared), and on a worker while the site is planned after a change
// (treeChangesOffThread). A file changed or added by hand is seen either way.
describe('a file changed or added by hand', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-by-hand-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });
  const detail = path.join(out, 'api/v1/matrix/MA0004.1/index.json');
  const extra = path.join(out, 'api/v1/matrix/MA0002.2/notes.txt');
  const meddle = () => {
    writeFileSync(detail, '{}');
    writeFileSync(extra, 'mine');
  };

  it('is put back or removed, the release unchanged or changed', async () => {
    await cli(data, out);
    const bytes = readFileSync(detail, 'utf8');
    meddle();
    expect(await cli(data, out)).not.toMatch(/up to date/);
    expect(readFileSync(detail, 'utf8')).toBe(bytes);
    expect(existsSync(extra)).toBe(false);
    // With a matrix changed too: the folder is looked at while the site is planned.
    const file = path.join(data, 'matrices', 'MA0002.2.jaspar');
    addToFirstCount(file);
    meddle();
    await cli(data, out);
    expect(readFileSync(detail, 'utf8')).toBe(bytes);
    expect(existsSync(extra)).toBe(false);
  }, 120_000);
});

// What the reader made of unchanged input files is kept between builds
// (dataset/parsed-files.ts, by content hash): an entry must never stand for
// a file whose content, or whose row in matrices.csv, has changed since.
describe('files parsed by an earlier build', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-parsed-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });

  it('are used only while the file and its row are as they were', async () => {
    // The fingerprint keeps (and the reader trusts) the hashes of files two seconds old.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await cli(data, out);
    const keptBefore = new Set(readKept(out, 'parsed-files', sourcesHash(PROJECT_ROOT)).keys());
    expect(keptBefore.size).toBeGreaterThan(FIXTURE_IDS.length);
    // A BED file's new lines are served, not those kept.
    const bed = path.join(data, 'sites', 'MA0014.2.bed');
    const lines = readFileSync(bed, 'utf8').split('\n');
    writeFileSync(bed, `${lines.slice(1).join('\n')}`);
    // Old enough for its new hash to be trusted: the entry kept under the old one must not be used.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await cli(data, out);
    const served = listFiles(out).filter((f) => f.includes('MA0014.2') && f.endsWith('.bed'));
    expect(served.length).toBeGreaterThan(0);
    for (const f of served) expect(readFileSync(path.join(out, f), 'utf8')).toBe(readFileSync(bed, 'utf8'));
    // What is kept for the next build (appended to the file, or the file written whole: write/state.ts keptAppend):
    // the entry of the BED file's new content in place of its old one, every other as it was.
    const keptAfter = new Set(readKept(out, 'parsed-files', sourcesHash(PROJECT_ROOT)).keys());
    const gone = [...keptBefore].filter((key) => !keptAfter.has(key));
    const made = [...keptAfter].filter((key) => !keptBefore.has(key));
    expect([gone.length, made.length]).toEqual([1, 1]);
    expect(gone[0].startsWith('bed\0') && made[0].startsWith('bed\0')).toBe(true);
    // A name changed in matrices.csv alone: the unchanged .jaspar file's header no longer agrees, and the build says so.
    const csv = path.join(data, 'matrices.csv');
    writeFileSync(csv, readFileSync(csv, 'utf8').replace(/^(MA0004\.1,MA0004,1,CORE,)([^,]+)/m, '$1Renamed'));
    const r = await runCli(['--data', data, '--out', out, '--base-url', 'http://localhost:8080'], { timeout: 120_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/MA0004\.1\.jaspar:1: the header names the matrix .* but matrices\.csv says "Renamed"/);
  }, 120_000);
});

// JASPAR's download files (dataset/official/index.ts) are kept the same way, by content hash and the name
// their records carry: an edited bundle or metadata table is read again, never answered from the entry
// kept for its earlier content.
describe('download files parsed by an earlier build', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-parsed-official-'));
  const data = path.join(root, 'jaspar-2026');
  const out = path.join(root, 'public');
  const description = path.join(root, 'release-2026.yaml');
  const bundle = path.join(data, 'JASPAR2026_CORE_fungi_non-redundant_pfms_jaspar.txt');
  const table = path.join(data, 'ultimate_metadata_table_CORE.tsv');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const build = async () => {
    const r = await runCli(['--data', data, '--release', description, '--out', out, '--base-url', 'http://localhost:8080'], { timeout: 120_000 });
    expect(r.status).toBe(0);
  };
  const detail = (id: string) => JSON.parse(readFileSync(path.join(out, 'api/v1/matrix', id, 'index.json'), 'utf8')) as { pfm: Record<string, number[]>; family: string[] };
  const officialKeys = () => [...readKept(out, 'parsed-files', sourcesHash(PROJECT_ROOT)).keys()].filter((k) => k.startsWith('official\0')).map((k) => k.split('\0').slice(0, 3).join(' '));

  it('are used only while the file is as it was', async () => {
    mkdirSync(data);
    const source = path.join(PROJECT_ROOT, 'data/jaspar-2026');
    writeFileSync(bundle, readFileSync(path.join(source, path.basename(bundle))));
    writeFileSync(table, readFileSync(path.join(source, path.basename(table))));
    // One release of its own: no older versions from JASPAR 2024.
    writeFileSync(description, readFileSync(path.join(PROJECT_ROOT, 'data/release-2026.yaml'), 'utf8').replace(/^older_versions:.*\n/m, ''));
    const id = /^>(\S+)/.exec(readFileSync(bundle, 'utf8'))![1];
    // The fingerprint keeps (and the reader trusts) the hashes of files two seconds old.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await build();
    expect(officialKeys().sort()).toEqual([`official jaspar ${path.relative(PROJECT_ROOT, bundle)}`, `official metadata ${path.relative(PROJECT_ROOT, table)}`]);
    const before = detail(id);
    // A count and the matrix's family edited: old enough for the new hashes to be trusted.
    addToFirstCount(bundle);
    const rows = readFileSync(table, 'utf8').split('\n');
    const header = rows[0].split('\t');
    const at = rows.findIndex((r) => r.split('\t').includes(id));
    const cells = rows[at].split('\t');
    cells[header.indexOf('family')] = 'Edited family';
    rows[at] = cells.join('\t');
    writeFileSync(table, rows.join('\n'));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await build();
    const after = detail(id);
    expect(after.pfm.A[0]).toBe(before.pfm.A[0] + 1);
    expect(after.family).toEqual(['Edited family']);
    // The entries of the earlier contents are not kept.
    expect(officialKeys()).toHaveLength(2);
  }, 120_000);
});
