// The service's filters and ordering over the index rows, as JASPAR's
// filter backend and DRF's OrderingFilter run them on SQLite (checked
// against the DRF oracle, test/oracle/drf/matrix/views.py):
//  - collection: upper-cased, exact; tax_group: lower-cased, exact;
//  - name: case-insensitive exact; search: case-insensitive substring of the
//    name, base id or collection; class, family, type: case-insensitive
//    substring of any of the matrix's values. SQLite's LIKE folds ASCII
//    letters only, so does this (plain substring tests: no user-controlled
//    regular expression is ever built);
//  - tax_id: one or more NCBI ids joined by commas, any species of the matrix;
//  - an empty value is no filter; a repeated parameter's last value counts;
//  - version=latest: the newest version of each base id among what the
//    other filters left;
//  - order: comma-separated name, collection, base_id, version, each with
//    an optional "-"; unknown fields are dropped; none left: by name. Ties
//    keep SQLite's scan order: the release's row order, reversed when the
//    first term is -base_id (the column has an index, which SQLite walks
//    backwards, and an index's equal keys lie in row order: UN0570.2
//    before UN0570.1 when both are named alike).
// tf_class, tf_family and data_type (what the real service and rbioapi call
// class, family and type) filter as those do.
import { asciiLower, type Record_ } from './indexes.ts';
import { compareCodePoints, pyInt } from './query.ts';

export interface Selection {
  collection?: string;
  name?: string;
  taxGroup?: string;
  tfClass: string[];
  tfFamily: string[];
  dataType: string[];
  taxIds?: number[];
  search?: string;
  latest: boolean;
  order: OrderTerm[];
}

export interface OrderTerm {
  field: 'name' | 'collection' | 'base_id' | 'version';
  descending: boolean;
}

export const ORDER_FIELDS = ['name', 'collection', 'base_id', 'version'] as const;
/** Longest filter value read; a longer one is refused (no JASPAR name or annotation comes near). */
export const MAX_VALUE_LENGTH = 200;
/** Most ids in one tax_id list. */
export const MAX_TAX_IDS = 50;

export class BadParameter extends Error {}

/** The parameters that select or order the list (selectionOf reads each): any other the service ignores. */
export const SELECTION_KEYS: readonly string[] = ['collection', 'name', 'tax_group', 'class', 'tf_class', 'family', 'tf_family', 'type', 'data_type', 'search', 'version', 'order', 'tax_id'];

/** The selection a query asks for; `get` returns a parameter's last value. */
export function selectionOf(get: (key: string) => string | undefined): Selection {
  const value = (key: string): string | undefined => {
    const v = get(key);
    if (v !== undefined && v.length > MAX_VALUE_LENGTH) throw new BadParameter(`${key} is longer than ${MAX_VALUE_LENGTH} characters`);
    return v ? v : undefined; // an empty value is no filter
  };
  const both = (a: string, b: string) => [value(a), value(b)].filter((v): v is string => v !== undefined);
  const selection: Selection = {
    collection: value('collection')?.toUpperCase(),
    name: value('name'),
    taxGroup: value('tax_group')?.toLowerCase(),
    tfClass: both('class', 'tf_class'),
    tfFamily: both('family', 'tf_family'),
    dataType: both('type', 'data_type'),
    search: value('search'),
    latest: get('version') === 'latest',
    order: orderOf(value('order')),
  };
  const taxIds = value('tax_id');
  if (taxIds !== undefined) {
    const parts = taxIds.split(',');
    if (parts.length > MAX_TAX_IDS) throw new BadParameter(`tax_id lists more than ${MAX_TAX_IDS} ids`);
    const ids = parts.map(pyInt);
    // The service answers a tax_id that is not a number with an HTML error page (500).
    if (ids.some((id) => id === null)) throw new BadParameter(`tax_id must be NCBI taxonomy ids (numbers) separated by commas, e.g. tax_id=9606,10090; got "${taxIds}"`);
    selection.taxIds = ids as number[];
  }
  return selection;
}

function orderOf(text: string | undefined): OrderTerm[] {
  if (text === undefined) return [];
  return text
    .split(',')
    .map((t) => t.trim())
    .map((t) => ({ field: t.replace(/^-/, ''), descending: t.startsWith('-') }))
    .filter((t): t is OrderTerm => (ORDER_FIELDS as readonly string[]).includes(t.field));
}


/** Sorted copies of one record list by order key, kept by the list's holder (the handler's state: its whole list). */
export type Sorts = Map<string, Record_[]>;

/** The records a selection keeps, in its order; `records` in list order; `sorts`: the sorted copies of `records` kept so far. */
export function select(records: readonly Record_[], s: Selection, sorts: Sorts = new Map()): Record_[] {
  // Needles folded once; the records carry folded copies of what they are matched on.
  const name = s.name === undefined ? undefined : asciiLower(s.name);
  const search = s.search === undefined ? undefined : asciiLower(s.search);
  const tfClass = s.tfClass.map(asciiLower);
  const tfFamily = s.tfFamily.map(asciiLower);
  const dataType = s.dataType.map(asciiLower);
  const taxIds = s.taxIds === undefined ? undefined : new Set(s.taxIds);
  let kept = records.filter((r) => {
    const f = r.folded;
    return (s.collection === undefined || r.collection === s.collection) &&
    (name === undefined || f.name === name) &&
    (s.taxGroup === undefined || r.taxGroup === s.taxGroup) &&
    tfClass.every((c) => f.tfClass.some((v) => v.includes(c))) &&
    tfFamily.every((c) => f.tfFamily.some((v) => v.includes(c))) &&
    dataType.every((t) => r.dataType !== '' && f.dataType.includes(t)) &&
    (taxIds === undefined || r.taxIds.some((id) => id !== null && taxIds.has(id))) &&
      (search === undefined || f.name.includes(search) || f.baseId.includes(search) || f.collection.includes(search));
  });
  if (s.latest) {
    const newest = new Map<string, number>();
    for (const r of kept) newest.set(r.baseId, Math.max(newest.get(r.baseId) ?? -Infinity, r.version));
    kept = kept.filter((r) => newest.get(r.baseId) === r.version);
  }
  if (s.order.length === 0) return kept;
  // The whole list sorted once per order (per handler), then what was kept
  // taken in that order: a sort per request cost ~10 ms for 5,278 records.
  const key = s.order.map((t) => `${t.descending ? '-' : ''}${t.field}`).join(',');
  let all = sorts.get(key);
  if (!all) {
    if (sorts.size >= MAX_SORTS) sorts.clear();
    sorts.set(key, (all = ordered([...records], s.order)));
  }
  const keep = new Set(kept);
  return kept.length === records.length ? all : all.filter((r) => keep.has(r));
}

/** Sorted copies kept of a list: bounded, order keys come from requests. */
const MAX_SORTS = 32;

function compareField(a: Record_, b: Record_, field: OrderTerm['field']): number {
  switch (field) {
    case 'name':
      return compareCodePoints(a.name, b.name);
    case 'collection':
      return compareCodePoints(a.collection, b.collection);
    case 'base_id':
      return compareCodePoints(a.baseId, b.baseId);
    case 'version':
      return a.version - b.version;
  }
}

function ordered(records: Record_[], terms: OrderTerm[]): Record_[] {
  const backwards = terms[0].field === 'base_id' && terms[0].descending;
  return records.sort((a, b) => {
    for (const t of terms) {
      const d = compareField(a, b, t.field);
      if (d !== 0) return t.descending ? -d : d;
    }
    return backwards ? b.row - a.row : a.row - b.row;
  });
}
