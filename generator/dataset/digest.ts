// A record's digest: a short hash of everything a matrix record holds
// (counts, annotations, binding sites, row). Rendering tasks are keyed by
// the digests of the records they render (pipeline/schedule.ts), so that a
// rebuild finds what one changed record affects without rendering anything.
// Computed once per record object and build.
import { createHash } from 'node:crypto';
import type { Matrix } from './types.ts';

const digests = new WeakMap<Matrix, string>();

/** JSON prints -0 as 0 and NaN as null; a format may print them apart (a Python float "-0.0"). */
const exact = (_key: string, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `number ${Object.is(v, -0) ? '-0' : v}` : v);

export function matrixDigest(m: Matrix): string {
  let d = digests.get(m);
  if (d === undefined) {
    d = createHash('sha1').update(JSON.stringify(m, exact)).digest('base64url');
    digests.set(m, d);
  }
  return d;
}

/** The digests of records in order, as one string (a list page's items, a base id's versions). */
export const digestsOf = (matrices: readonly Matrix[]): string => matrices.map(matrixDigest).join(',');

/** A logo's input: the counts alone. */
export const pfmDigest = (m: Matrix): string => createHash('sha1').update(JSON.stringify(m.pfm, exact)).digest('base64url');
