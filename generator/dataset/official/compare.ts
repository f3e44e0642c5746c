// What differs between two releases of the same matrices, field by field:
// the release read from JASPAR's download files against the curated one
// (scripts/official-vs-curated.ts prints it; test/dataset/official-vs-curated.test.ts
// checks it). Pure: two Releases in, counts and examples out.
import type { Matrix, Release } from '../types.ts';

export const COMPARED_FIELDS = [
  'name', 'collection', 'pfm', 'taxGroup', 'tfClass', 'tfFamily', 'dataType', 'species', 'uniprotIds', 'pubmedIds', 'source', 'comment', 'sites',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export interface FieldDiff {
  /** Ids where the first release has nothing (empty, [] or null) and the second has a value. */
  onlySecond: string[];
  /** Ids where the first has a value and the second has none. */
  onlyFirst: string[];
  /** Ids where both have a value and the values differ. */
  different: string[];
}

export interface ReleaseDiff {
  onlyFirst: string[];
  onlySecond: string[];
  shared: number;
  fields: Record<ComparedField, FieldDiff>;
}

const show = (m: Matrix, field: ComparedField): string => {
  const v = m[field];
  if (v === null || v === '') return '';
  if (Array.isArray(v)) return v.length === 0 ? '' : JSON.stringify(v);
  return typeof v === 'string' ? v : JSON.stringify(v);
};

export function compareReleases(first: Release, second: Release): ReleaseDiff {
  const a = new Map(first.matrices.map((m) => [m.matrixId, m]));
  const b = new Map(second.matrices.map((m) => [m.matrixId, m]));
  const fields = Object.fromEntries(COMPARED_FIELDS.map((f) => [f, { onlySecond: [], onlyFirst: [], different: [] } as FieldDiff])) as Record<ComparedField, FieldDiff>;
  let shared = 0;
  for (const [id, x] of a) {
    const y = b.get(id);
    if (!y) continue;
    shared++;
    for (const field of COMPARED_FIELDS) {
      const [u, v] = [show(x, field), show(y, field)];
      if (u === v) continue;
      if (u === '') fields[field].onlySecond.push(id);
      else if (v === '') fields[field].onlyFirst.push(id);
      else fields[field].different.push(id);
    }
  }
  return {
    onlyFirst: [...a.keys()].filter((id) => !b.has(id)),
    onlySecond: [...b.keys()].filter((id) => !a.has(id)),
    shared,
    fields,
  };
}

/** The diff as text lines: counts, and up to `examples` ids with both values. */
export function describeDiff(diff: ReleaseDiff, first: Release, second: Release, names: [string, string], examples = 3): string[] {
  const a = new Map(first.matrices.map((m) => [m.matrixId, m]));
  const b = new Map(second.matrices.map((m) => [m.matrixId, m]));
  const cut = (s: string) => {
    const line = s.replace(/\n/g, '\\n');
    return line.length > 70 ? `${line.slice(0, 67)}...` : line;
  };
  const lines = [
    `${names[0]}: ${first.matrices.length} matrices; ${names[1]}: ${second.matrices.length}; ${diff.shared} ids in both`,
    `only in ${names[0]}: ${diff.onlyFirst.length}${diff.onlyFirst.length ? ` (${diff.onlyFirst.slice(0, 5).join(', ')})` : ''}`,
    `only in ${names[1]}: ${diff.onlySecond.length}${diff.onlySecond.length ? ` (${diff.onlySecond.slice(0, 5).join(', ')}${diff.onlySecond.length > 5 ? ', ...' : ''})` : ''}`,
  ];
  for (const field of COMPARED_FIELDS) {
    const d = diff.fields[field];
    const total = d.onlyFirst.length + d.onlySecond.length + d.different.length;
    lines.push(`${field}: ${total === 0 ? 'identical' : `${total} differ: ${d.onlySecond.length} empty in ${names[0]} only, ${d.onlyFirst.length} empty in ${names[1]} only, ${d.different.length} with other values`}`);
    for (const id of [...d.different.slice(0, examples), ...d.onlySecond.slice(0, 1)]) {
      lines.push(`  ${id}: ${cut(show(a.get(id)!, field)) || '(empty)'} | ${cut(show(b.get(id)!, field)) || '(empty)'}`);
    }
  }
  return lines;
}
