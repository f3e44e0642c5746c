// The release read from JASPAR's official 2024 files (data/jaspar-2024/sources/)
// against the curated release (data/jaspar-2024/) for the same ids, field by
// field: the same matrices, names and counts, and every annotation the
// official files carry equal to the curated one. What the curated release
// adds comes from files that are not JASPAR 2024 downloads (PROVENANCE.md):
// each kind of difference is named here with its reason.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import { readRelease } from '../../generator/dataset/read.ts';
import { COMPARED_FIELDS, compareReleases, describeDiff } from '../../generator/dataset/official/compare.ts';
import { pyFixed } from '../../generator/dataset/numbers.ts';
import { BASES } from '../../generator/dataset/types.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const CURATED = path.join(PROJECT_ROOT, 'data/jaspar-2024');
const releaseFile = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
const info = readReleaseInfo(readFileSync(releaseFile, 'utf8'), (t) => yaml.load(t), releaseFile);
const official = readRelease(path.join(CURATED, 'sources'), info).release;
const curated = readRelease(CURATED, info).release;
const diff = compareReleases(official, curated);
const byId = (r: typeof official) => new Map(r.matrices.map((m) => [m.matrixId, m]));
const [o, c] = [byId(official), byId(curated)];
const provenance = new Map(readFileSync(path.join(CURATED, 'provenance.csv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => [l.split(',')[0], l.split(',')]));
const precise = JSON.parse(readFileSync(path.join(CURATED, 'pfm_noninteger.json'), 'utf8')) as Record<string, { source: string }>;

describe('the official 2024 files give the curated release\'s matrices', () => {
  it('prints the difference (for the closing note)', () => {
    process.stdout.write(`${describeDiff(diff, official, curated, ['official', 'curated'], 1).join('\n')}\n`);
    expect(diff.shared).toBe(official.matrices.length);
  });

  it('every id but one: UN0173.1 is in no 2022 or 2024 bundle (the curated release takes it from the 2020 TRANSFAC export)', () => {
    expect(diff.onlyFirst).toEqual([]);
    expect(diff.onlySecond).toEqual(['UN0173.1']);
    expect(provenance.get('UN0173.1')![1]).toMatch(/^J20_UN_transfac/);
    // The same list order: ids sorted, as matrices.csv.
    expect(official.matrices.map((m) => m.matrixId)).toEqual(curated.matrices.map((m) => m.matrixId).filter((id) => id !== 'UN0173.1'));
  });

  it('the same names and collections for every id', () => {
    expect(diff.fields.name).toEqual({ onlyFirst: [], onlySecond: [], different: [] });
    expect(diff.fields.collection).toEqual({ onlyFirst: [], onlySecond: [], different: [] });
  });

  it('the same counts, except the 55 older versions whose decimals the curated release takes from RSAT\'s copy of 2022 (no official file has them)', () => {
    const differ = diff.fields.pfm.different;
    expect(differ.sort()).toEqual(Object.keys(precise).filter((id) => precise[id].source === 'J22_rsat_tf').sort());
    expect(differ).toHaveLength(55);
    // The official counts are the curated ones as the jaspar bundle prints them.
    for (const id of differ) {
      for (const base of BASES) expect(c.get(id)!.pfm[base].map((v) => Number(pyFixed(v, 0))), id).toEqual(o.get(id)!.pfm[base]);
    }
    // The 95 full-precision matrices of the 2024 TRANSFAC exports are equal to the last digit.
    const transfac = Object.keys(precise).filter((id) => precise[id].source === 'J24_transfac');
    expect(transfac).toHaveLength(95);
    for (const id of transfac) expect(o.get(id)!.pfm, id).toEqual(c.get(id)!.pfm);
  });

  it('every annotation the official files carry is the curated value; the curated release only adds values', () => {
    for (const field of COMPARED_FIELDS.filter((f) => f !== 'pfm')) {
      expect(diff.fields[field].different, field).toEqual([]);
      expect(diff.fields[field].onlyFirst, field).toEqual([]);
    }
  });

  it('what the curated release adds comes from files other than the official 2024 ones (provenance.csv)', () => {
    // provenance.csv columns: matrix_id, pfm_from, in_official_2024_bundle, is_latest_version, then one tag per field.
    const column: Partial<Record<(typeof COMPARED_FIELDS)[number], number>> = { taxGroup: 4, tfClass: 5, tfFamily: 6, dataType: 7, species: 8, uniprotIds: 10, pubmedIds: 11, source: 12, comment: 13 };
    for (const [field, index] of Object.entries(column)) {
      for (const id of diff.fields[field as keyof typeof column].onlySecond) {
        expect(provenance.get(id)![index], `${field} of ${id}`).not.toMatch(/^J24_transfac/);
      }
    }
    // The binding sites are JASPAR 2018's (data/jaspar-2024/README.md); no 2024 download file holds them.
    // (One of the curated BED files is empty: no sites, as no file.)
    expect(diff.fields.sites.onlySecond.length).toBe(curated.matrices.filter((m) => m.sites && o.has(m.matrixId)).length);
  });
});
