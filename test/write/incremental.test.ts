// The writer updates the output folder in place: only files whose bytes
// change are written (the others keep their mtime), what the plan no longer
// has is removed, a folder someone altered is repaired, a build that died
// half way makes the next one trust nothing, and files a later step adds
// (the mirror archive) are adopted. Render workers write what the main
// thread would.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Matrix } from '../../generator/dataset/types.ts';
import { planSite, writeSite } from '../../generator/build.ts';
import { renderPlan } from '../../generator/pipeline/schedule.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { OutputPlan, SiteWriter, unchangedSite } from '../../generator/write/writer.ts';
import { markInProgress, readState } from '../../generator/write/state.ts';
import { addToFirstCount, makeRelease } from '../support/fixtures.ts';
import { makeFixtureSite } from '../support/fixture-site.ts';
import { listFiles } from '../support/tree.ts';

const temps: string[] = [];
function tempRoot(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-incremental-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mtimes = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, statSync(path.join(dir, f)).mtimeMs]));
const changed = (before: Record<string, number>, dir: string) => Object.entries(mtimes(dir)).filter(([f, m]) => before[f] !== m).map(([f]) => f).sort();
const contents = (dir: string) => listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]);

const logoMatrix = (id: string, a: number): Matrix => ({ matrixId: id, pfm: { A: [a, 0], C: [0, 5], G: [0, 0], T: [5, 0] } }) as unknown as Matrix;

function plan(files: Record<string, string>, logos: Matrix[] = []): OutputPlan {
  const p = new OutputPlan(undefined, FLAT);
  for (const [f, c] of Object.entries(files)) p.add(f, c);
  for (const m of logos) p.addLogo(m);
  return p;
}

describe('incremental writing', () => {
  it('writes only files whose bytes change, removes what is no longer planned, and emptied folders', async () => {
    const out = path.join(tempRoot(), 'public');
    await writeSite(plan({ 'a.txt': 'a', 'b/c.txt': 'c', 'gone/x.txt': 'x', 'same.txt': 's' }), out);
    const before = mtimes(out);
    await new Promise((r) => setTimeout(r, 20));
    const report = await writeSite(plan({ 'a.txt': 'A', 'b/c.txt': 'c', 'same.txt': 's', 'new/n.txt': 'n' }), out);
    expect(changed(before, out)).toEqual(['a.txt', 'new/n.txt']);
    expect(listFiles(out)).toEqual(['a.txt', 'b/c.txt', 'new/n.txt', 'same.txt']);
    expect(existsSync(path.join(out, 'gone'))).toBe(false);
    expect(report).toMatchObject({ files: 4, written: 2, unchanged: 2, removed: 1, incremental: true });
  });

  it('does not render a task whose key and files are unchanged', async () => {
    const out = path.join(tempRoot(), 'public');
    const logos = [logoMatrix('MA0001.1', 5), logoMatrix('MA0002.1', 5)];
    const first = await writeSite(plan({}, logos), out, { salt: 's' });
    expect(first).toMatchObject({ rendered: 2, reused: 0 });
    const before = mtimes(out);
    const again = await writeSite(plan({}, [logoMatrix('MA0001.1', 5), logoMatrix('MA0002.1', 4)]), out, { salt: 's' });
    expect(again).toMatchObject({ rendered: 1, reused: 1, written: 1 });
    expect(changed(before, out)).toEqual(['static/logos/svg/MA0002.1.svg']);
    // Another salt (the generator changed): rendered again, but bytes compared, nothing rewritten.
    const resalted = await writeSite(plan({}, [logoMatrix('MA0001.1', 5), logoMatrix('MA0002.1', 4)]), out, { salt: 't' });
    expect(resalted).toMatchObject({ rendered: 2, reused: 0, written: 0 });
  });

  it('repairs a folder someone altered: changed, deleted and added files', async () => {
    const out = path.join(tempRoot(), 'public');
    const files = { 'a.txt': 'a', 'b/c.txt': 'c', 'd.txt': 'd' };
    const logos = [logoMatrix('MA0001.1', 5)];
    await writeSite(plan(files, logos), out, { salt: 's', fingerprint: 'f' });
    const expected = contents(out);
    expect(unchangedSite(out, 'f')).not.toBeNull();
    writeFileSync(path.join(out, 'a.txt'), 'tampered');
    writeFileSync(path.join(out, 'static/logos/svg/MA0001.1.svg'), '<svg/>');
    rmSync(path.join(out, 'b/c.txt'));
    writeFileSync(path.join(out, 'extra.txt'), 'extra');
    mkdirSync(path.join(out, 'b/extra-folder'));
    expect(unchangedSite(out, 'f')).toBeNull();
    const before = mtimes(out);
    await writeSite(plan(files, logos), out, { salt: 's', fingerprint: 'f' });
    expect(contents(out)).toEqual(expected);
    expect(readdirSync(path.join(out, 'b'))).toEqual(['c.txt']);
    expect(before['d.txt']).toBe(statSync(path.join(out, 'd.txt')).mtimeMs);
    expect(unchangedSite(out, 'f')).not.toBeNull();
  });

  it('after a build that died half way, trusts nothing, compares every file and keeps the mtime of equal ones', async () => {
    const out = path.join(tempRoot(), 'public');
    const files = { 'a.txt': 'a', 'b.txt': 'b' };
    await writeSite(plan(files), out, { fingerprint: 'f' });
    const before = mtimes(out);
    markInProgress(out); // as a build that crashed after it started writing
    writeFileSync(path.join(out, 'b.txt'), 'half written');
    expect(readState(out)).toBeNull();
    expect(unchangedSite(out, 'f')).toBeNull();
    const report = await writeSite(plan(files), out, { fingerprint: 'f' });
    expect(report).toMatchObject({ incremental: false, written: 1, unchanged: 1 });
    expect(contents(out)).toEqual([['a.txt', 'a'], ['b.txt', 'b']]);
    expect(statSync(path.join(out, 'a.txt')).mtimeMs).toBe(before['a.txt']);
    expect(unchangedSite(out, 'f')).not.toBeNull();
  });

  it('writes everything again when the folder was deleted but its state (kept beside it) was not', async () => {
    const out = path.join(tempRoot(), 'public');
    const files = { 'a.txt': 'a', 'b/c.txt': 'c' };
    const logos = [logoMatrix('MA0001.1', 5)];
    await writeSite(plan(files, logos), out, { salt: 's', fingerprint: 'f' });
    const expected = contents(out);
    rmSync(out, { recursive: true }); // rm -rf public
    expect(readState(out)).not.toBeNull();
    const report = await writeSite(plan(files, logos), out, { salt: 's', fingerprint: 'f' });
    expect(report).toMatchObject({ written: 3, reused: 0, incremental: false });
    expect(contents(out)).toEqual(expected);
  });

  it('adopts files a later step adds between write and commit, and keeps them', async () => {
    const out = path.join(tempRoot(), 'public');
    const once = async () => {
      const writer = new SiteWriter(out, { fingerprint: 'f' });
      const p = plan({ 'download/x.bed': 'x', 'index.html': 'i' });
      writer.open(p);
      const r = writer.close(p, await renderPlan(p, {}, writer));
      if (!existsSync(path.join(out, 'download/archive.tar.gz'))) writeFileSync(path.join(out, 'download/archive.tar.gz'), 'tar');
      writer.commit();
      return r;
    };
    await once();
    expect(unchangedSite(out, 'f')).not.toBeNull();
    const r = await once();
    expect(r.removed).toBe(0);
    expect(listFiles(out)).toEqual(['download/archive.tar.gz', 'download/x.bed', 'index.html']);
    expect(unchangedSite(out, 'f')).not.toBeNull();
  });
});

describe('what a changed record re-renders', () => {
  it('one count changed: exactly the tasks that show the matrix (its pages, its logo, the list pages it is on), every other task reused', async () => {
    const data = makeRelease();
    temps.push(data);
    const out = path.join(tempRoot(), 'public');
    const options = { dataDir: data, outDir: out, baseUrl: 'http://localhost:8080' };
    const first = await writeSite(planSite(options).plan, out, { salt: 's', workers: 0 });
    const file = path.join(data, 'matrices', 'MA0004.1.jaspar');
    addToFirstCount(file);
    const { plan: next } = planSite(options);
    const shows = next.tasks.filter((t) => (t!.kind === 'logo' ? t!.matrix.matrixId === 'MA0004.1' : t!.planned.resource.matrices.some((m) => m.matrixId === 'MA0004.1')));
    const again = await writeSite(next, out, { salt: 's', workers: 0 });
    expect(shows.length).toBeGreaterThan(5);
    expect(again).toMatchObject({ rendered: shows.length, reused: first.rendered - shows.length });
  }, 60_000);

  it('one matrix removed: the rows after it in matrices.csv shift, and the pages of those matrices are reused all the same', async () => {
    const data = makeRelease();
    temps.push(data);
    const out = path.join(tempRoot(), 'public');
    const options = { dataDir: data, outDir: out, baseUrl: 'http://localhost:8080' };
    await writeSite(planSite(options).plan, out, { salt: 's', workers: 0 });
    const csv = path.join(data, 'matrices.csv');
    const [header, removed, ...after] = readFileSync(csv, 'utf8').split('\n');
    writeFileSync(csv, [header, ...after].join('\n'));
    rmSync(path.join(data, 'matrices', `${removed.split(',')[0]}.jaspar`));
    const { plan: next } = planSite(options);
    // Each matrix's own detail page (no list, no other version of its base id): none shows the removed matrix.
    const removedBase = removed.split(',')[1];
    const details = next.tasks.filter((t) => t!.kind === 'resource' && t!.planned.resource.kind === 'detail' && t!.planned.resource.matrices.every((m) => m.baseId !== removedBase)).map((t) => t!.paths[0]);
    // A task whose key is the previous build's (and whose files are intact) is reused, not rendered.
    const keyOf = (f: string) => readState(out)!.keys.get(f);
    const before = details.map(keyOf);
    const again = await writeSite(next, out, { salt: 's', workers: 0 });
    expect(details.length).toBeGreaterThan(5);
    expect(before.every((k) => k !== undefined)).toBe(true);
    expect(details.map(keyOf)).toEqual(before);
    expect(again.reused).toBeGreaterThanOrEqual(details.length);
  }, 60_000);

  it('the release folders moved (a clone elsewhere): every task reused, though JASPAR 2026 names its older versions by their absolute path', async () => {
    const root = tempRoot();
    const at = (dir: string) => {
      const site = makeFixtureSite(dir);
      return { dataDir: site.dataDirs, outDir: path.join(root, 'public'), baseUrl: 'http://localhost:8080' };
    };
    const first = at(path.join(root, 'here'));
    const built = await writeSite(planSite(first).plan, first.outDir, { salt: 's', workers: 1 });
    const moved = path.join(root, 'there');
    renameSync(path.join(root, 'here'), moved);
    const { plan } = planSite({ ...first, dataDir: first.dataDir.map((d) => path.join(moved, path.basename(d))) });
    // The other release's part is planned from the moved folder's description: its older versions' path differs.
    expect(plan.parts.some((p) => p.release.olderVersions?.startsWith(moved))).toBe(true);
    const again = await writeSite(plan, first.outDir, { salt: 's', workers: 1 });
    expect(built.rendered).toBeGreaterThan(1000);
    expect(again).toMatchObject({ rendered: 0, reused: built.rendered, written: 0 });
  }, 120_000);
});

describe('render workers', () => {
  it('write the same tree as rendering on the main thread', async () => {
    const data = makeRelease();
    temps.push(data);
    const root = tempRoot();
    const options = (outDir: string) => ({ dataDir: data, outDir, baseUrl: 'http://localhost:8080' });
    const here = path.join(root, 'here');
    const workers = path.join(root, 'workers');
    const a = await writeSite(planSite(options(here)).plan, here, { workers: 0 });
    const b = await writeSite(planSite(options(workers)).plan, workers, { workers: 2 });
    expect(b.files).toBe(a.files);
    expect(listFiles(workers)).toEqual(listFiles(here));
    expect(contents(workers)).toEqual(contents(here));
  }, 60_000);
});
