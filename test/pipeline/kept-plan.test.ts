// The kept plan's shortcut (pipeline/kept-plan.ts PlanShapes.sameRecords): a rebuild whose records all have
// the previous build's shape takes the previous build's task signatures without computing its own. Each case
// plans a small release twice, as a rebuild does (planSite with the first plan's kept data), and checks
// that the shortcut is taken only when no record's shape changed, and that it plans exactly what the
// signatures compared one by one plan: the same tasks, the same signatures kept for the next build.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSite, readReleases, type BuildOptions } from '../../generator/build.ts';
import { PlanShapes, type KeptPlanData } from '../../generator/pipeline/kept-plan.ts';
import { filterValues, listOrder, listViews } from '../../generator/plan/views.ts';
import type { Release } from '../../generator/dataset/types.ts';
import { addToFirstCount, makeRelease } from '../support/fixtures.ts';
import { dataDir } from '../support/paths.ts';

const SALT = 'salt';

describe('the kept plan when every record keeps its shape', () => {
  let data: string;
  let options: BuildOptions;
  beforeEach(() => {
    data = makeRelease();
    options = { dataDir: data, outDir: '/nonexistent-out', baseUrl: 'http://localhost:8080' };
  });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  /** A plan with the kept data of a previous one (null: the first build of a folder); what it keeps and plans. */
  const plan = (kept: KeptPlanData | null, profile?: BuildOptions['profile']) => {
    const planned = planSite({ ...options, profile }, { state: null, salt: SALT, kept: { data: kept, fingerprint: 'fingerprint' } });
    return { keep: planned.keepPlan!, carry: planned.carry === true, tasks: planned.plan.tasks.map((t) => t!.paths.join(' ')) };
  };
  /** Whether a rebuild with this kept data takes the shortcut. */
  const same = (kept: KeptPlanData, profile = 'full') => new PlanShapes(kept, readReleases(options).map((r) => r.release), profile).sameRecords;
  /** Whether a rebuild with this kept data says records were added or removed (build.ts then starts the render workers). */
  const addedOrRemoved = (kept: KeptPlanData | null) => new PlanShapes(kept, readReleases(options).map((r) => r.release), 'full').addedOrRemoved;
  /** The kept data without the records' rows and shapes: every signature is computed and compared. */
  const withoutShapes = (kept: KeptPlanData): KeptPlanData => ({ ...kept, digests: kept.digests.map(([year, ids, digests]) => [year, ids, digests, [], []]) });
  const csv = () => path.join(data, 'matrices.csv');
  const cell = (id: string, column: number, value: (old: string) => string) => {
    const lines = readFileSync(csv(), 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith(`${id},`));
    const cells = lines[i].split(',');
    cells[column] = value(cells[column]);
    lines[i] = cells.join(',');
    writeFileSync(csv(), lines.join('\n'));
  };

  it('is taken when a count changes, and plans what comparing every signature plans', () => {
    const first = plan(null);
    expect(first.carry).toBe(false);
    expect(same(first.keep)).toBe(true);
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), 1);
    expect(same(first.keep)).toBe(true);
    expect(same(withoutShapes(first.keep))).toBe(false);
    expect(addedOrRemoved(first.keep)).toBe(false);
    const quick = plan(first.keep);
    const compared = plan(withoutShapes(first.keep));
    expect(quick.carry).toBe(true);
    expect(compared.carry).toBe(true);
    expect(quick.tasks).toEqual(compared.tasks);
    expect(quick.tasks.length).toBeGreaterThan(0);
    expect(quick.keep.tasks).toEqual(compared.keep.tasks);
    expect(quick.keep.digests).toEqual(compared.keep.digests);
    // The next build compares with this one: the count changed back is a change again.
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), -1);
    expect(same(quick.keep)).toBe(true);
    expect(plan(quick.keep).tasks).toEqual(quick.tasks);
  });

  it.each([
    ['tf_family', 7],
    ['data_type', 8],
    ['species (a name)', 9],
    ['comment', 14],
  ])('is taken when an annotation that decides no task changes (%s), and plans what comparing every signature plans', (_what, column) => {
    const first = plan(null);
    cell('MA0074.1', column, (v) => `${v}x`);
    expect(same(first.keep)).toBe(true);
    const quick = plan(first.keep);
    const compared = plan(withoutShapes(first.keep));
    expect(quick.carry).toBe(true);
    expect(quick.tasks).toEqual(compared.tasks);
    expect(quick.keep.tasks).toEqual(compared.keep.tasks);
  });

  it.each([
    ['collection', 3],
    ['tax_group', 5],
    ['tax_ids', 10],
  ])('is not taken when a field that decides tasks changes (%s)', (_what, column) => {
    const first = plan(null);
    cell('MA0074.1', column, (v) => (column === 10 ? '10090' : `${v}x`));
    expect(same(first.keep)).toBe(false);
  });

  it('is not taken when a name changes (the list order), a record moves in matrices.csv, the profile differs, or the kept data has no shapes', () => {
    const first = plan(null);
    const jaspar = path.join(data, 'matrices', 'MA0074.1.jaspar');
    const header = readFileSync(jaspar, 'utf8');
    cell('MA0074.1', 4, (v) => `${v}x`);
    writeFileSync(jaspar, header.replace('RXRA::VDR', 'RXRA::VDRx'));
    expect(same(first.keep)).toBe(false);
    expect(addedOrRemoved(first.keep)).toBe(false);
    cell('MA0074.1', 4, (v) => v.slice(0, -1));
    writeFileSync(jaspar, header);
    expect(same(first.keep)).toBe(true);
    expect(same(first.keep, 'compact')).toBe(false);
    expect(same(withoutShapes(first.keep))).toBe(false);
    // Two rows swapped: the same records, in another order (the list order's tie-breaker).
    const lines = readFileSync(csv(), 'utf8').split('\n');
    [lines[1], lines[2]] = [lines[2], lines[1]];
    writeFileSync(csv(), lines.join('\n'));
    expect(same(first.keep)).toBe(false);
    expect(addedOrRemoved(first.keep)).toBe(false);
  });

  it('keeps no signatures when the parts changed (none were computed): the next build plans every task, then keeps them', () => {
    const first = plan(null);
    const otherParts = { ...first.keep, parts: first.keep.parts.replace('JASPAR', 'JASPAR (another description)') };
    expect(otherParts.parts).not.toBe(first.keep.parts);
    expect(same(otherParts)).toBe(true);
    const second = plan(otherParts);
    expect(second.carry).toBe(false);
    expect(second.keep.tasks).toEqual([]);
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), 1);
    const third = plan(second.keep);
    expect(third.carry).toBe(false);
    expect(third.keep.tasks).toEqual(first.keep.tasks);
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), -1);
    expect(plan(third.keep).carry).toBe(true);
  });

  it('takes the previous build\'s list order, filter values and views, which are those made from the records again', () => {
    /** A release's order, values and views, the records by id. */
    const views = (r: Release) => ({
      order: listOrder(r.matrices).map((m) => m.matrixId),
      values: filterValues(r),
      views: listViews(r).map((v) => ({ filters: v.filters, ids: v.matrices.map((m) => m.matrixId) })),
    });
    const first = plan(null);
    expect(first.keep.views?.length).toBe(1);
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), 1);
    cell('MA0074.1', 7, (v) => `${v}x`);
    const taken = readReleases(options).map((r) => r.release);
    const shapes = new PlanShapes(first.keep, taken, 'full');
    expect(shapes.sameRecords).toBe(true);
    const made = readReleases(options).map((r) => views(r.release));
    const takenViews = taken.map(views);
    expect(takenViews).toEqual(made);
    expect(takenViews[0].views.length).toBeGreaterThan(10);
    // The records are this build's objects (the counts changed, not the previous build's).
    const view = listViews(taken[0]).find((v) => v.matrices.some((m) => m.matrixId === 'MA0004.1'))!;
    expect(view.matrices.every((m) => taken[0].matrices.includes(m))).toBe(true);
    // Kept again as they were taken.
    expect(shapes.toKeep('f', SALT, [], [], taken, 'full').views).toEqual(first.keep.views);
    // Taken, not made again: an order kept reversed is the order this build has.
    const reversed = readReleases(options).map((r) => r.release);
    const [year, kept] = first.keep.views![0];
    new PlanShapes({ ...first.keep, views: [[year, { ...kept, order: kept.order.slice().reverse() }]] }, reversed, 'full');
    expect(listOrder(reversed[0].matrices).map((m) => m.matrixId)).toEqual([...made[0].order].reverse());
  });

  it('carries records added when every place and content path of the previous plan is planned, not a new path that differs only in case from a name the folder holds', () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'jaspar-kept-plan-out-'));
    try {
      const first = plan(null);
      // MA0024.2, with its binding sites (a content file), into a folder the first plan was written to (here: empty).
      const row = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').split('\n').find((l) => l.startsWith('MA0024.2,'))!;
      const lines = readFileSync(csv(), 'utf8').split('\n');
      lines.splice(lines.findIndex((l, i) => i > 0 && l.split(',')[0] > 'MA0024.2'), 0, row);
      writeFileSync(csv(), lines.join('\n'));
      copyFileSync(path.join(dataDir(), 'matrices', 'MA0024.2.jaspar'), path.join(data, 'matrices', 'MA0024.2.jaspar'));
      copyFileSync(path.join(dataDir(), 'sites', 'MA0024.2.bed'), path.join(data, 'sites', 'MA0024.2.bed'));
      const into = (kept: KeptPlanData | null) => {
        const planned = planSite({ ...options, outDir: out }, { state: null, salt: SALT, kept: { data: kept, fingerprint: 'fingerprint' } });
        return { keep: planned.keepPlan!, carry: planned.carry === true, tasks: planned.plan.tasks.map((t) => t!.paths.join(' ')) };
      };
      const added = into(first.keep);
      const whole = into(null);
      expect(addedOrRemoved(first.keep)).toBe(true);
      expect(addedOrRemoved(null)).toBe(false);
      expect(added.carry).toBe(true);
      expect(added.tasks.length).toBeGreaterThan(0);
      expect(added.tasks.length).toBeLessThan(whole.tasks.length);
      expect(added.tasks.filter((t) => !whole.tasks.includes(t))).toEqual([]);
      expect(added.tasks.some((t) => t.includes('MA0024.2/'))).toBe(true);
      // What it keeps is what a plan of every task keeps.
      expect(added.keep.tasks).toEqual(whole.keep.tasks);
      expect(added.keep.places).toEqual(whole.keep.places);
      expect(added.keep.places?.length).toBe(whole.keep.tasks.length);
      // Its detail's folder differs only in case from one the folder holds.
      mkdirSync(path.join(out, 'api/v1/matrix/ma0024.2'), { recursive: true });
      expect(into(first.keep).carry).toBe(false);
      rmSync(path.join(out, 'api/v1/matrix/ma0024.2'), { recursive: true });
      expect(into(first.keep).carry).toBe(true);
      // A record removed: its places have no task, whose files only the previous build's state knows (none here); a kept
      // plan without places carries nothing.
      expect(into({ ...first.keep, places: undefined }).carry).toBe(false);
      const removed = into(null);
      writeFileSync(csv(), lines.filter((l) => !l.startsWith('MA0004.1,')).join('\n'));
      rmSync(path.join(data, 'matrices', 'MA0004.1.jaspar'));
      expect(addedOrRemoved(removed.keep)).toBe(true);
      expect(into(removed.keep).carry).toBe(false);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is not taken when a record moves between views, and then plans every task', () => {
    const first = plan(null);
    cell('MA0074.1', 5, (v) => (v === 'insects' ? 'plants' : 'insects'));
    expect(same(first.keep)).toBe(false);
    const moved = plan(first.keep);
    expect(moved.carry).toBe(false);
    expect(moved.tasks.length).toBe(first.tasks.length);
  });
});
