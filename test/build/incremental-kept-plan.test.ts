// The plan kept between builds (pipeline/kept-plan.ts): a rebuild whose tasks have the previous build's
// shapes leaves out of its plan every task that shows no changed record, and keeps their files as they
// are. Each case says whether the plan was kept (the report's tasks.kept) and that the rebuilt folder
// holds exactly what a build into a new folder writes: a count changed and changed back (a record's
// digest changed, its shape not), an annotation that moves nothing, one that moves a record between
// views, a matrix removed and added back, another base URL (the keys' salt), and a file altered by
// hand while the plan would be kept; records added (with a count changed at once, to a new taxon), the
// last record of a view removed and added back, and one whose new folder differs only in case from a
// kept one. Builds run as child processes, from the generator's bundle.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addToFirstCount, makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT, dataDir } from '../support/paths.ts';
import { run } from '../support/run.ts';
import { treeSnapshot } from '../support/tree.ts';

interface Built {
  files: number;
  bytes: number;
  written: number;
  removed: number;
  tasks: { rendered: number; reused: number; kept?: number };
}

/** One build, as scripts/build-child.mjs starts it, with this base URL. */
async function build(data: string, out: string, baseUrl = 'http://localhost:8080'): Promise<Built> {
  const r = await buildRun(data, out, baseUrl);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Built;
}

/** The build's process as it ended (a build refused says why on stderr). */
async function buildRun(data: string, out: string, baseUrl = 'http://localhost:8080') {
  const code = `const { bundled } = await import(${JSON.stringify(path.join(PROJECT_ROOT, 'generator/start.mjs'))});
const { build } = await bundled('generator/build.ts');
const report = await build({ dataDir: ${JSON.stringify(data)}, outDir: ${JSON.stringify(out)}, baseUrl: ${JSON.stringify(baseUrl)} });
process.stdout.write(JSON.stringify(report) + '\\n');`;
  return run(process.execPath, ['--input-type=module', '-e', code], { timeout: 120_000, cwd: PROJECT_ROOT });
}

describe('the plan kept between builds', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-kept-plan-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });
  let fresh = 0;
  /** The rebuilt folder against a build into a new folder, file by file. */
  async function sameAsFull(baseUrl?: string, rebuilt?: Built): Promise<void> {
    const other = path.join(root, `fresh-${++fresh}`);
    const full = await build(data, other, baseUrl);
    // The report counts the files kept from the previous build too.
    if (rebuilt) expect([rebuilt.files, rebuilt.bytes]).toEqual([full.files, full.bytes]);
    const a = treeSnapshot(out);
    const b = treeSnapshot(other);
    rmSync(other, { recursive: true, force: true });
    expect([...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort()).toEqual([]);
  }
  const csv = path.join(data, 'matrices.csv');
  const cell = (id: string, column: number, value: (old: string) => string) => {
    const lines = readFileSync(csv, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith(`${id},`));
    const cells = lines[i].split(',');
    cells[column] = value(cells[column]);
    lines[i] = cells.join(',');
    writeFileSync(csv, lines.join('\n'));
  };
  const count = (id: string, by: number) => addToFirstCount(path.join(data, 'matrices', `${id}.jaspar`), by);

  it('is kept when a count changes, and changes back (the digests it compares with are the last build\'s)', async () => {
    const first = await build(data, out);
    expect(first.tasks.kept).toBe(0);
    count('MA0004.1', 1);
    const changed = await build(data, out);
    expect(changed.tasks.kept).toBeGreaterThan(0);
    // Only tasks that show MA0004.1 (and the tasks without a shape) are planned; its detail and logo are written.
    expect(changed.tasks.rendered).toBeGreaterThan(0);
    expect(changed.tasks.rendered + changed.tasks.reused).toBeLessThan(changed.tasks.kept!);
    await sameAsFull(undefined, changed);
    count('MA0004.1', -1);
    const back = await build(data, out);
    expect(back.tasks.kept).toBeGreaterThan(0);
    expect(back.tasks.rendered).toBeGreaterThan(0);
    await sameAsFull(undefined, back);
  }, 240_000);

  it('is kept when an annotation that moves nothing changes (tf_family), and when one moves a record between views (tax_group) that leaves every page where it was', async () => {
    cell('MA0074.1', 7, (v) => `${v} (edited)`);
    const family = await build(data, out);
    expect(family.tasks.kept).toBeGreaterThan(0);
    await sameAsFull(undefined, family);
    // MA0074.1 joins the insects' views (a page more in none) and leaves the vertebrates' (which keep theirs).
    cell('MA0074.1', 5, (v) => (v === 'insects' ? 'plants' : 'insects'));
    const moved = await build(data, out);
    expect(moved.tasks.kept).toBeGreaterThan(0);
    await sameAsFull(undefined, moved);
  }, 240_000);

  it('is kept when a matrix is removed (its detail, versions and logo go) and when it is added back, not for another base URL; is kept again after', async () => {
    const lines = readFileSync(csv, 'utf8').split('\n');
    const row = lines.find((l) => l.startsWith('MA0002.2,'))!;
    const jaspar = path.join(data, 'matrices', 'MA0002.2.jaspar');
    writeFileSync(csv, lines.filter((l) => l !== row).join('\n'));
    renameSync(jaspar, path.join(root, 'MA0002.2.jaspar'));
    const removed = await build(data, out);
    expect(removed.tasks.kept).toBeGreaterThan(0);
    expect(removed.removed).toBeGreaterThan(0);
    await sameAsFull(undefined, removed);
    writeFileSync(csv, lines.join('\n'));
    renameSync(path.join(root, 'MA0002.2.jaspar'), jaspar);
    const added = await build(data, out);
    expect(added.tasks.kept).toBeGreaterThan(0);
    await sameAsFull(undefined, added);
    count('MA0014.2', 2);
    const elsewhere = await build(data, out, 'http://localhost:8080/mirror');
    expect(elsewhere.tasks.kept).toBe(0);
    await sameAsFull('http://localhost:8080/mirror');
    count('MA0014.2', -2);
    const again = await build(data, out, 'http://localhost:8080/mirror');
    expect(again.tasks.kept).toBeGreaterThan(0);
    await sameAsFull('http://localhost:8080/mirror');
  }, 240_000);

  it('is not kept when a file of a task it would leave out was altered by hand: that file is put back', async () => {
    const detail = path.join(out, 'api/v1/matrix/MA0002.2/index.json');
    const bytes = readFileSync(detail, 'utf8');
    writeFileSync(detail, '{}');
    count('MA0004.1', 3);
    const r = await build(data, out, 'http://localhost:8080/mirror');
    expect(r.tasks.kept).toBe(0);
    expect(readFileSync(detail, 'utf8')).toBe(bytes);
    await sameAsFull('http://localhost:8080/mirror');
  }, 240_000);
});

describe('the plan kept between builds when records are added', () => {
  const data = makeRelease();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-kept-plan-added-'));
  const out = path.join(root, 'public');
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });
  const csv = path.join(data, 'matrices.csv');
  const shared = dataDir();
  /** Adds a matrix of the shared release (its row in id order, its files), as given or with its row changed. */
  const add = (id: string, row: (cells: string[]) => string[] = (c) => c) => {
    const from = readFileSync(path.join(shared, 'matrices.csv'), 'utf8').split('\n').find((l) => l.startsWith(`${id},`))!;
    const lines = readFileSync(csv, 'utf8').split('\n');
    const at = lines.findIndex((l, i) => i > 0 && (l === '' || l.split(',')[0] > id));
    lines.splice(at < 0 ? lines.length : at, 0, row(from.split(',')).join(','));
    writeFileSync(csv, lines.join('\n'));
    copyFileSync(path.join(shared, 'matrices', `${id}.jaspar`), path.join(data, 'matrices', `${id}.jaspar`));
    if (existsSync(path.join(shared, 'sites', `${id}.bed`))) copyFileSync(path.join(shared, 'sites', `${id}.bed`), path.join(data, 'sites', `${id}.bed`));
  };
  const remove = (id: string) => {
    writeFileSync(csv, readFileSync(csv, 'utf8').split('\n').filter((l) => !l.startsWith(`${id},`)).join('\n'));
    rmSync(path.join(data, 'matrices', `${id}.jaspar`));
    rmSync(path.join(data, 'sites', `${id}.bed`), { force: true });
  };
  let fresh = 0;
  async function sameAsFull(rebuilt: Built): Promise<void> {
    const other = path.join(root, `fresh-${++fresh}`);
    const full = await build(data, other);
    expect([rebuilt.files, rebuilt.bytes]).toEqual([full.files, full.bytes]);
    const a = treeSnapshot(out);
    const b = treeSnapshot(other);
    rmSync(other, { recursive: true, force: true });
    expect([...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort()).toEqual([]);
  }

  it('is kept when a matrix is added with a count changed at once, and when one is added to a new taxon', async () => {
    expect((await build(data, out)).tasks.kept).toBe(0);
    // A vertebrate with binding sites (a new content file), and MA0004.1's counts.
    add('MA0024.2');
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), 1);
    const both = await build(data, out);
    expect(both.tasks.kept).toBeGreaterThan(0);
    expect(both.written).toBeGreaterThan(0);
    await sameAsFull(both);
    // The first nematode: new views of its taxonomic group, its taxon and their combinations with the collection.
    add('MA0260.1');
    const taxon = await build(data, out);
    expect(taxon.tasks.kept).toBeGreaterThan(0);
    await sameAsFull(taxon);
  }, 240_000);

  it('is kept when the last matrix of a view is removed (its pages go with it), and when the view comes back', async () => {
    // UN0083.1, the only fungus: the views of its taxonomic group and taxon go with it.
    remove('UN0083.1');
    const gone = await build(data, out);
    expect(gone.tasks.kept).toBeGreaterThan(0);
    expect(gone.removed).toBeGreaterThan(0);
    await sameAsFull(gone);
    add('UN0083.1');
    const back = await build(data, out);
    expect(back.tasks.kept).toBeGreaterThan(0);
    await sameAsFull(back);
  }, 240_000);

  it('refuses a matrix added whose folder differs only in case from one the folder holds, as a build into a new folder does', async () => {
    await build(data, out);
    // "Insects" beside the insects' views of MA2191.1, which are left as they are.
    add('MA0118.1', (cells) => cells.map((c, i) => (i === 5 ? 'Insects' : c)));
    const rebuilt = await buildRun(data, out);
    const full = await buildRun(data, path.join(root, 'fresh-case'));
    expect(full.status).not.toBe(0);
    expect(full.stderr).toMatch(/differs only in case/);
    expect(rebuilt.status).toBe(full.status);
    expect(rebuilt.stderr).toMatch(/differs only in case/);
    remove('MA0118.1');
  }, 240_000);
});
