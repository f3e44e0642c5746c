// patchPlan's count of a scope's files in the writer's listing (mirror/archive.ts scopeCount): counted once a listing by
// their first two folders, it must say what scopeTest says of every path, the scopes' own files and odd depths included.
import { describe, expect, it } from 'vitest';
import { scopeCount, scopeFiles, scopeTest, WHOLE_SITE, type MirrorScope, type SiteListing } from '../../generator/mirror/archive.ts';
import { SiteRecords } from '../../generator/write/records.ts';

const scopes: MirrorScope[] = [WHOLE_SITE, { dir: '', exclude: ['releases'] }, { dir: 'releases/2026', exclude: [] }, { dir: 'releases', exclude: [] }, { dir: 'releases/2026/api', exclude: [] }, { dir: '', exclude: ['api/v1'] }];

const files = [
  'index.html',
  'api/index.json',
  'api/v1/matrix/index.json',
  'api/v1/matrix/MA0001.1/index.json',
  'api/v1x/index.json',
  'releases',
  'releases/2026',
  'releases/2026x/a.txt',
  'releases/2026/index.html',
  'releases/2026/api/v1/matrix/index.json',
  'releases/2027/api/v1/matrix/index.json',
  '_edge/matrices.json',
  '.nojekyll',
  ...scopes.flatMap((s) => Object.values(scopeFiles(s))),
];

const brute = (listing: SiteListing, scope: MirrorScope) => [...listing.files].filter(scopeTest(scope)).length;

describe('scopeCount', () => {
  it('counts what scopeTest holds, for scopes of one, two and three levels, with and without their own files', () => {
    for (const listed of [files, files.filter((f) => !f.includes('download/')), files.filter((_, i) => i % 2 === 0)]) {
      const listing: SiteListing = { files: listed, dirs: [''] };
      for (const scope of scopes) expect(scopeCount(listing, scope, scopeTest(scope)), `${scope.dir}|${scope.exclude.join()}`).toBe(brute(listing, scope));
    }
  });

  it('counts the same from the writer\'s records by folder (files forgotten left out)', () => {
    for (const listed of [files, files.filter((f) => !f.includes('download/')), files.filter((_, i) => i % 2 === 0)]) {
      const records = new SiteRecords();
      for (const rel of [...listed, 'api/v1/matrix/MA9999.1/index.json', 'releases/2026/download/gone.txt']) records.files.set(rel, { size: 1, ctimeMs: 1, adopted: false });
      records.files.delete('api/v1/matrix/MA9999.1/index.json');
      records.files.delete('releases/2026/download/gone.txt');
      const listing: SiteListing = { files: records.files.keys(), dirs: [''], byFolder: { count: (spelt) => records.filesByFolder(spelt), has: (rel) => records.files.has(rel) } };
      const plain: SiteListing = { files: listed, dirs: [''] };
      for (const scope of scopes) expect(scopeCount(listing, scope, scopeTest(scope)), `${scope.dir}|${scope.exclude.join()}`).toBe(brute(plain, scope));
    }
  });
});
