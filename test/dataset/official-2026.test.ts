// The whole JASPAR 2026 CORE collection read from JASPAR's files
// (data/jaspar-2026) with JASPAR 2024 for the older versions
// (data/jaspar-2024, older_versions in data/release-2026.yaml): every
// matrix checked against the files it comes from. Reads both releases whole
// (about 5-10 s), so it runs with the long suites (vitest.config.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadRelease } from '../../generator/dataset/curated.ts';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import { detect } from '../../generator/dataset/official/detect.ts';
import { readRelease } from '../../generator/dataset/read.ts';
import { BASES } from '../../generator/dataset/types.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { renderDetail } from '../support/release.ts';
import { turn } from '../support/run.ts';

const DATA_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026');
const DATA_2024 = path.join(PROJECT_ROOT, 'data/jaspar-2024');
const TABLE = 'ultimate_metadata_table_CORE.tsv';
const read = (file: string) => readFileSync(file, 'utf8');
const info = (year: number) => {
  const file = path.join(PROJECT_ROOT, `data/release-${year}.yaml`);
  return readReleaseInfo(read(file), (t) => yaml.load(t), file);
};
const INFO_2026 = info(2026);
const INFO_2024 = info(2024);

describe('JASPAR 2026 from JASPAR\'s files and JASPAR 2024', () => {
  it('reads the whole JASPAR 2026 CORE collection: latest versions from the 2026 bundles, older ones from JASPAR 2024, every annotation from the 2026 table', async () => {
    // The event loop turns between the long parts (docs/tests.md).
    const { release, notes } = readRelease(DATA_2026, INFO_2026);
    await turn();
    expect(release.matrices).toHaveLength(4572);
    expect(new Set(release.matrices.map((m) => m.baseId)).size).toBe(2633);
    expect(notes).toContain("counts: 2,633 from the 2026 bundles (93 of them with data/jaspar-2024's full-precision counts, which round to the bundles' whole numbers), 1,939 from data/jaspar-2024");
    // Every record of every 2026 bundle (the diatoms extract included), rendered in the jaspar format, is the record byte for byte.
    const byId = new Map(release.matrices.map((m) => [m.matrixId, m]));
    const records = detect(DATA_2026).bundles.filter((b) => b.kind === 'jaspar').flatMap((b) => read(b.path).split(/(?=^>)/m));
    expect(records).toHaveLength(2633);
    for (const [i, record] of records.entries()) {
      const id = /^>(\S+)\t/.exec(record)![1];
      expect(renderDetail(byId.get(id)!, 'jaspar', INFO_2026), id).toBe(record);
      if (i % 500 === 0) await turn();
    }
    // Every other version has JASPAR 2024's counts, full precision included.
    const latest = new Set(records.map((r) => /^>(\S+)\t/.exec(r)![1]));
    const curated = new Map(loadRelease(DATA_2024, INFO_2024).matrices.map((m) => [m.matrixId, m]));
    await turn();
    const older = release.matrices.filter((m) => !latest.has(m.matrixId));
    expect(older).toHaveLength(1939);
    for (const m of older) expect(m.pfm, m.matrixId).toEqual(curated.get(m.matrixId)!.pfm);
    // Where both hold a version with decimals, 2024's full precision is kept (MA1972.1: 2024 pfm_noninteger.json).
    expect(byId.get('MA1972.1')!.pfm).toEqual(curated.get('MA1972.1')!.pfm);
    expect(BASES.some((b) => byId.get('MA1972.1')!.pfm[b].some((v) => !Number.isInteger(v)))).toBe(true);
    // Every annotation is the table's: names, class, family, UniProt, PubMed, comment, source, data type, species, tax ids, tax group.
    const table = new Map(read(path.join(DATA_2026, TABLE)).split('\n').slice(1).filter(Boolean).map((l) => [l.split('\t')[2], l.split('\t')]));
    const none = (v: string) => (v === '-' ? '' : v);
    for (const m of release.matrices) {
      const row = table.get(m.matrixId)!;
      expect(row, m.matrixId).toBeDefined();
      expect([m.collection, m.taxGroup, m.name, m.tfClass.join('::'), m.tfFamily.join('::'), m.uniprotIds.join('::'), m.pubmedIds.join('::'), m.comment, m.source, m.dataType], m.matrixId)
        .toEqual([row[0], row[1], row[5], row[6], row[7], row[8], none(row[9]), row[10], row[11], row[12]]);
      expect(m.species.map((s) => s.name).join('::'), m.matrixId).toBe(row[14]);
      expect(m.species.map((s) => s.taxId ?? '').join('::'), m.matrixId).toBe(row[13]);
    }
    // New in 2026, and the new tax group (2024 leaves MA1407.2's empty and calls MA1407.1 plants).
    expect(byId.get('MA2593.1')).toMatchObject({ name: 'ZNF362', taxGroup: 'vertebrates' });
    expect(curated.has('MA2593.1')).toBe(false);
    expect([byId.get('MA1407.1')!.taxGroup, byId.get('MA1407.2')!.taxGroup]).toEqual(['diatoms', 'diatoms']);
    expect(curated.get('MA1407.1')!.taxGroup).toBe('plants');
    // Annotations may change between releases: MA0089.1 is MAFG::NFE2L1 in 2024 and MAFG::NRF1 in 2026.
    expect([curated.get('MA0089.1')!.name, byId.get('MA0089.1')!.name]).toEqual(['MAFG::NFE2L1', 'MAFG::NRF1']);
  });
});
