// JASPAR's releases (generator/dataset/releases.ts) and how /api/v1/releases/
// lists them (plan/endpoints.ts): every release 1 to 11 with its paper; the
// releases a site holds with their matrices and collections.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import { JASPAR_RELEASES, jasparRelease } from '../../generator/dataset/releases.ts';
import type { Release } from '../../generator/dataset/types.ts';
import { indexLists, planReleases, releaseBody, type HeldRelease } from '../../generator/plan/endpoints.ts';
import { releaseDir } from '../../generator/routes/urls.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const BASE = 'http://localhost:8080';
const info = (year: number) => {
  const file = path.join(PROJECT_ROOT, `data/release-${year}.yaml`);
  return readReleaseInfo(readFileSync(file, 'utf8'), (t) => yaml.load(t), file);
};
const empty = (year: number): Release => ({ info: info(year), matrices: [] });

describe('JASPAR\'s releases', () => {
  it('are numbered 1 to 11 in year order, each with a citation of its NAR paper', () => {
    expect(JASPAR_RELEASES.map((r) => [r.number, r.year])).toEqual([2004, 2006, 2008, 2010, 2014, 2016, 2018, 2020, 2022, 2024, 2026].map((year, i) => [i + 1, year]));
    for (const r of JASPAR_RELEASES) {
      expect(r.name).toBe(`JASPAR ${r.year}`);
      expect(r.citation, r.name).toMatch(new RegExp(`Nucleic Acids Res\\. ${r.year};`));
      if (r.doi !== null) expect(r.citation.endsWith(`doi:${r.doi}`), r.name).toBe(true);
    }
    expect(jasparRelease(2026)).toMatchObject({ number: 11, doi: '10.1093/nar/gkaf1209', pubmedId: '41325984' });
    expect(jasparRelease(2012)).toBeUndefined();
  });

  it('the release descriptions agree with the table (number; the 2026 citation is the paper\'s)', () => {
    for (const year of [2024, 2026]) expect(info(year).number).toBe(jasparRelease(year)!.number);
    expect(info(2026).citation).toBe(jasparRelease(2026)!.citation);
  });
});

describe('/api/v1/releases/', () => {
  const held: HeldRelease[] = [
    { info: info(2024), matrices: 5278 },
    { info: info(2026), matrices: 4572, matrixUrl: `${BASE}/api/v1/matrix/?release=2026` },
  ];

  it('lists every release; those held say how many matrices, which collections, and link them', () => {
    const list = indexLists(empty(2024), BASE, held).find((l) => l.endpoint === 'releases')!;
    expect(list.items.map((r) => [r.release_number, r.year, r.mirrored])).toEqual(JASPAR_RELEASES.map((r) => [r.number, r.year, r.year >= 2024]));
    expect(list.items[9]).toEqual({
      release_number: 10, year: 2024, name: 'JASPAR 2024', citation: info(2024).citation, doi: '10.1093/nar/gkad1059', pubmed_id: null, mirrored: true, matrices: 5278,
      collections: { CORE: 'mirrored', UNVALIDATED: 'mirrored' }, url: `${BASE}${releaseDir(2024)}`, matrix_url: `${BASE}/api/v1/matrix/`,
    });
    expect(list.items[10]).toMatchObject({ release_number: 11, matrices: 4572, collections: { CORE: 'mirrored', UNVALIDATED: 'not published', DL: 'not published' }, matrix_url: `${BASE}/api/v1/matrix/?release=2026` });
    expect(list.items[7]).toMatchObject({ release_number: 8, year: 2020, name: 'JASPAR 2020', mirrored: false, matrices: null, collections: null, matrix_url: null, doi: '10.1093/nar/gkz1001' });
  });

  it('answers /releases/<year>/ and /releases/<number>/ for each of the 11, with the list\'s item', () => {
    const planned = planReleases(empty(2024), BASE, held);
    expect(planned.map((p) => p.dir)).toEqual(JASPAR_RELEASES.flatMap((r) => [releaseDir(r.year), releaseDir(r.number)]));
    const eight = planned.find((p) => p.dir === releaseDir(8))!;
    expect(eight.resource.body).toEqual(releaseBody(jasparRelease(2020)!, null, BASE));
    expect(planned.find((p) => p.dir === releaseDir(2026))!.resource.body).toEqual(planned.find((p) => p.dir === releaseDir(11))!.resource.body);
  });

  it('a site of one release holds it alone (the default)', () => {
    const planned = planReleases(empty(2026), BASE);
    const bodies = planned.filter((p) => (p.resource.body as { mirrored: boolean }).mirrored);
    expect(bodies.map((p) => p.dir)).toEqual([releaseDir(2026), releaseDir(11)]);
    expect(bodies[0].resource.body).toMatchObject({ matrices: 0, matrix_url: `${BASE}/api/v1/matrix/` });
  });
});
