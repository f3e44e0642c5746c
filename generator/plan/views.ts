// The filtered lists the mirror pre-renders: the filters real clients send
// (rbioapi, RSAT, JASPAR's own examples) and the combinations JASPAR's
// download bundles offer (collection × tax_group × latest versions). Every
// value the release holds is pre-rendered, also combinations without a
// match: the real service answers those with an empty list, not an error.
import type { Matrix, Release } from '../dataset/types.ts';
import { LIST_VALUE, type FilterKey, type Filters } from '../routes/paths.ts';

import { FILTER_COMBINATIONS } from '../routes/table.ts';

/** The only value of `version` the real service filters on. */
export const LATEST = 'latest';

/** A value becomes a folder name and a Netlify placeholder value: plain characters only. */
const SAFE_VALUE = LIST_VALUE;

export interface ListView {
  filters: Filters;
  /** In list order. */
  matrices: Matrix[];
}

/**
 * listOrder and filterValues of a release's matrices, made once per array: a build asks for them about
 * ten times a release (pages, indexes, the search page, the bulk files, the OpenAPI description), 0.4 s
 * of a rebuild's plan when made each time. A release's matrices are not changed once read (dataset/read.ts);
 * each caller gets its own copy.
 */
const ordered = new WeakMap<readonly Matrix[], readonly Matrix[]>();
const valuesByRelease = new WeakMap<readonly Matrix[], Record<FilterKey, readonly string[]>>();

/** By name, compared by code point (UTF-8 bytes order the same way), ties in row order. */
export function listOrder(matrices: readonly Matrix[]): Matrix[] {
  let sorted = ordered.get(matrices);
  if (sorted === undefined) {
    const keys = new Map(matrices.map((m) => [m, Buffer.from(m.name, 'utf8')]));
    sorted = [...matrices].sort((a, b) => Buffer.compare(keys.get(a)!, keys.get(b)!) || a.row - b.row);
    ordered.set(matrices, sorted);
  }
  return [...sorted];
}

/** Which filter values each matrix answers to. */
function valuesOf(m: Matrix, key: FilterKey, latest: Set<Matrix>): string[] {
  switch (key) {
    case 'collection':
      return [m.collection];
    case 'tax_group':
      return m.taxGroup ? [m.taxGroup] : [];
    case 'tax_id':
      return m.species.flatMap((s) => (s.taxId === null ? [] : [String(s.taxId)]));
    case 'version':
      return latest.has(m) ? [LATEST] : [];
  }
}

/** Whether the matrix answers to this filter value (valuesOf(…).includes(value), without making the arrays:
 *  the views' selection asks it of every matrix of every view, 0.26 s of a build's plan with the arrays). */
function answers(m: Matrix, key: FilterKey, value: string, latest: Set<Matrix>): boolean {
  switch (key) {
    case 'collection':
      return m.collection === value;
    case 'tax_group':
      return m.taxGroup !== '' && m.taxGroup === value;
    case 'tax_id':
      return m.species.some((s) => s.taxId !== null && String(s.taxId) === value);
    case 'version':
      return value === LATEST && latest.has(m);
  }
}

/** The latest version of every base id. */
export function latestVersions(matrices: readonly Matrix[]): Set<Matrix> {
  const latest = new Map<string, Matrix>();
  for (const m of matrices) {
    const seen = latest.get(m.baseId);
    if (!seen || seen.version < m.version) latest.set(m.baseId, m);
  }
  return new Set(latest.values());
}

/** Every value a filter takes in the release, sorted; values that are not plain words are left out (see README). */
export function filterValues(release: Release): Record<FilterKey, string[]> {
  let values = valuesByRelease.get(release.matrices);
  if (values === undefined) {
    const latest = latestVersions(release.matrices);
    const made = {} as Record<FilterKey, string[]>;
    for (const key of ['collection', 'tax_group', 'tax_id', 'version'] as const) {
      const set = new Set<string>();
      for (const m of release.matrices) for (const v of valuesOf(m, key, latest)) if (SAFE_VALUE.test(v)) set.add(v);
      made[key] = [...set].sort(key === 'tax_id' ? (a, b) => Number(a) - Number(b) : undefined);
    }
    valuesByRelease.set(release.matrices, (values = made));
  }
  return { collection: [...values.collection], tax_group: [...values.tax_group], tax_id: [...values.tax_id], version: [...values.version] };
}

/** Whether the build pre-renders the list view of these filters: a combination of FILTER_COMBINATIONS, each
 *  value one the release holds (`values`: filterValues). The edge handler asks it of a request (its file is the
 *  answer) and of a compact build's missing folder (rendered as the build would have). */
export function isPreRenderedView(filters: Filters, values: Record<FilterKey, string[]>): boolean {
  const keys = (Object.keys(filters) as FilterKey[]).filter((k) => filters[k] !== undefined);
  return FILTER_COMBINATIONS.some((c) => c.length === keys.length && c.every((k) => keys.includes(k)))
    && keys.every((k) => values[k]?.includes(filters[k]!) === true);
}

/** listViews of a release's matrices, made once per array (or taken from a previous build: takeViews). Not changed by their callers. */
const viewsByRelease = new WeakMap<readonly Matrix[], readonly ListView[]>();

/** Every pre-rendered list view, the unfiltered list first. Each caller gets its own list of the same views. */
export function listViews(release: Release): ListView[] {
  let views = viewsByRelease.get(release.matrices);
  if (views === undefined) viewsByRelease.set(release.matrices, (views = makeViews(release)));
  return [...views];
}

/**
 * A release's list order, filter values and views by its records' places (indices into release.matrices),
 * for a later build of records of the same shape (pipeline/kept-plan.ts): those decide all three (names and
 * rows the order, collections, taxonomic groups, taxon ids, base ids and versions the values and views).
 * Made for the shipped site's 2 × ~1,900 views, they were about 0.16 s of a one-count rebuild's plan
 * (profile at load 8: listViews 160 of planResources' 279 ms, half of it the list order's sort).
 */
export interface KeptViews {
  /** listOrder, by index. */
  order: Int32Array;
  values: Record<FilterKey, string[]>;
  filters: Filters[];
  /** View k's records are members[ends[k-1] .. ends[k]) (from 0 for the first). */
  ends: Int32Array;
  members: Int32Array;
}

export function keptViews(release: Release): KeptViews {
  const at = new Map(release.matrices.map((m, i) => [m, i]));
  const views = listViews(release);
  const ends = new Int32Array(views.length);
  const members = new Int32Array(views.reduce((n, v) => n + v.matrices.length, 0));
  let n = 0;
  for (const [k, view] of views.entries()) {
    for (const m of view.matrices) members[n++] = at.get(m)!;
    ends[k] = n;
  }
  return { order: Int32Array.from(listOrder(release.matrices), (m) => at.get(m)!), values: filterValues(release), filters: views.map((v) => v.filters), ends, members };
}

/** Takes a previous build's list order, filter values and views (keptViews) as this release's: only for records
 *  of the same shape as that build's, in the same order (kept-plan.ts PlanShapes.sameRecords). */
export function takeViews(release: Release, kept: KeptViews): void {
  const records = release.matrices;
  ordered.set(records, Array.from(kept.order, (i) => records[i]));
  valuesByRelease.set(records, kept.values);
  let from = 0;
  viewsByRelease.set(records, kept.filters.map((filters, k) => {
    const matrices = Array.from(kept.members.subarray(from, kept.ends[k]), (i) => records[i]);
    from = kept.ends[k];
    return { filters, matrices };
  }));
}

function makeViews(release: Release): ListView[] {
  const ordered = listOrder(release.matrices);
  const latest = latestVersions(release.matrices);
  const values = filterValues(release);
  // Each value's matrices, one pass a filter key: a view starts from the matrices of its first value and
  // checks the rest on those (viewMatrices over the whole release for each of the 2024 release's
  // 1,900 views was 0.8 s of every build).
  const byValue = new Map<FilterKey, Map<string, Matrix[]>>();
  const matching = (key: FilterKey, value: string): Matrix[] => {
    let index = byValue.get(key);
    if (index === undefined) {
      byValue.set(key, (index = new Map()));
      for (const m of ordered) {
        for (const v of valuesOf(m, key, latest)) {
          const list = index.get(v);
          if (list === undefined) index.set(v, [m]);
          else if (list[list.length - 1] !== m) list.push(m);
        }
      }
    }
    return index.get(value) ?? [];
  };
  const views: ListView[] = [];
  for (const keys of FILTER_COMBINATIONS) {
    let combos: Filters[] = [{}];
    for (const key of keys) combos = combos.flatMap((f) => values[key].map((v) => ({ ...f, [key]: v })));
    const first = keys.find((key) => key !== 'version');
    for (const filters of combos) views.push({ filters, matrices: first === undefined ? viewMatrices(ordered, filters, latest) : viewMatrices(matching(first, filters[first]!), filters, latest) });
  }
  return views;
}

/**
 * The matrices of one list view, in list order (`ordered`: the release in
 * list order; `latest`: latestVersions of the whole release). The build and
 * the edge handler's compact renderer (edge/render-missing.ts) both select
 * with this.
 */
export function viewMatrices(ordered: readonly Matrix[], filters: Filters, latest: Set<Matrix> = latestVersions(ordered)): Matrix[] {
  // The service filters first and keeps the newest version of each base id
  // among what is left (tax_group=plants&version=latest: 875 matrices; the
  // newest over the whole release, then filtered, would be 820).
  const others = (Object.keys(filters) as FilterKey[]).filter((key) => key !== 'version' && filters[key] !== undefined);
  let matrices = others.length === 0 ? [...ordered] : ordered.filter((m) => others.every((key) => answers(m, key, filters[key]!, latest)));
  if (filters.version === LATEST) {
    const newest = latestVersions(matrices);
    matrices = matrices.filter((m) => newest.has(m));
  }
  return matrices;
}
