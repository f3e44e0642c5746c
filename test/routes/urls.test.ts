import { describe, expect, it } from 'vitest';
import { FORMAT_IDS } from '../../generator/formats/registry.ts';
import { FLAT, type Layout } from '../../generator/routes/shard.ts';
import {
  detailDir, detailUrl, fileName, listDir, listQueryUrl, pageHref, logoPath, logoUrl, normaliseBaseUrl, outputPath, pathUrl, sitesUrl, versionsDir, versionsUrl,
  filteredListUrl, indexQueryUrl, indexUrl, listUrl, releaseUrl,
} from '../../generator/routes/urls.ts';

const BASE = 'https://mirror.example.org';

describe('query URLs carried in bodies', () => {
  it.each([
    [listQueryUrl(BASE, 'json', 2), 'https://mirror.example.org/api/v1/matrix?format=json&page=2'],
    [listQueryUrl(BASE, 'jaspar', 528), 'https://mirror.example.org/api/v1/matrix?format=jaspar&page=528'],
    [detailUrl(BASE, 'MA0004.1'), 'https://mirror.example.org/api/v1/matrix/MA0004.1/'],
    [versionsUrl(BASE, 'MA0004'), 'https://mirror.example.org/api/v1/matrix/MA0004/versions'],
    [logoUrl(BASE, FLAT, 'MA0004.1'), 'https://mirror.example.org/static/logos/svg/MA0004.1.svg'],
    [logoUrl(BASE, { idFolders: true, logos: true, shard: 2 }, 'MA0004.1'), 'https://mirror.example.org/static/logos/svg/MA/MA0004.1.svg'],
    [sitesUrl(BASE, 'MA0014.2'), 'https://mirror.example.org/download/bed_files/MA0014.2.bed'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('links in bodies, by style (--links query|path)', () => {
  const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
  it.each([
    [listQueryUrl(BASE, 'yaml', 3, 25, { collection: 'CORE', version: 'latest' }), `${BASE}/api/v1/matrix?collection=CORE&format=yaml&page=3&page_size=25&version=latest`],
    [listQueryUrl(BASE, 'yaml', 3, 25, { collection: 'CORE', version: 'latest' }, 'path'), `${BASE}/api/v1/matrix/collection/CORE/version/latest/page_size/25/page/3/index.yaml`],
    [listQueryUrl(BASE, 'api', 2, 10, {}, 'path'), `${BASE}/api/v1/matrix/page/2/`],
    [indexQueryUrl(BASE, 'species', 'json', 2), `${BASE}/api/v1/species/?format=json&page=2`],
    [indexQueryUrl(BASE, 'species', 'jsonp', 2, 100, 'path'), `${BASE}/api/v1/species/page_size/100/page/2/index.js`],
    [detailUrl(BASE, 'MA0004.1', 'path', SHARDED), `${BASE}/api/v1/matrix/MA/MA0004.1/index.json`],
    [versionsUrl(BASE, 'MA0004', 'path', FLAT), `${BASE}/api/v1/matrix/MA0004/versions/index.json`],
    [indexUrl(BASE, 'taxon'), `${BASE}/api/v1/taxon/`],
    [indexUrl(BASE, 'taxon', 'path'), `${BASE}/api/v1/taxon/page/1/index.json`],
    [filteredListUrl(BASE, 'collection', 'CORE'), `${BASE}/api/v1/collections/CORE/`],
    [filteredListUrl(BASE, 'tax_id', '9606', 'query', 'query'), `${BASE}/api/v1/matrix/?tax_id=9606`],
    [filteredListUrl(BASE, 'tax_id', '9606', 'path'), `${BASE}/api/v1/matrix/tax_id/9606/page/1/index.json`],
    [releaseUrl(BASE, 2024), `${BASE}/api/v1/releases/2024/`],
    [releaseUrl(BASE, 2024, 'path'), `${BASE}/api/v1/releases/2024/index.json`],
    [listUrl(BASE), `${BASE}/api/v1/matrix/`],
    [listUrl(BASE, 'path'), `${BASE}/api/v1/matrix/page/1/index.json`],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('asks for the layout to link a file in path style', () => {
    expect(() => detailUrl(BASE, 'MA0004.1', 'path')).toThrow(/layout/);
  });
});

describe('path URLs and output files', () => {
  it.each([
    ['api', '/api/v1/matrix/page/3/', 'api/v1/matrix/page/3/index.html'],
    ['json', '/api/v1/matrix/page/3/index.json', 'api/v1/matrix/page/3/index.json'],
    ['jsonp', '/api/v1/matrix/page/3/index.js', 'api/v1/matrix/page/3/index.js'],
    ['yaml', '/api/v1/matrix/page/3/index.yaml', 'api/v1/matrix/page/3/index.yaml'],
    ['jaspar', '/api/v1/matrix/page/3/index.jaspar.txt', 'api/v1/matrix/page/3/index.jaspar.txt'],
    ['meme', '/api/v1/matrix/page/3/index.meme.txt', 'api/v1/matrix/page/3/index.meme.txt'],
    ['transfac', '/api/v1/matrix/page/3/index.transfac.txt', 'api/v1/matrix/page/3/index.transfac.txt'],
    ['pfm', '/api/v1/matrix/page/3/index.pfm.txt', 'api/v1/matrix/page/3/index.pfm.txt'],
    ['bed', '/api/v1/matrix/page/3/index.bed.txt', 'api/v1/matrix/page/3/index.bed.txt'],
  ] as const)('list page in %s', (format, url, file) => {
    expect(pathUrl(listDir(3), format)).toBe(url);
    expect(outputPath(listDir(3), format)).toBe(file);
  });

  it('gives every format its own file name, and detail and versions folders', () => {
    expect(new Set(FORMAT_IDS.map(fileName)).size).toBe(FORMAT_IDS.length);
    expect(outputPath(detailDir(FLAT, 'MA0004.1'), 'json')).toBe('api/v1/matrix/MA0004.1/index.json');
    expect(outputPath(versionsDir(FLAT, 'MA0004'), 'yaml')).toBe('api/v1/matrix/MA0004/versions/index.yaml');
  });
});

// The layout is a parameter, not a setting of the module: two sites (a flat
// one and a sharded one) can be planned, served or checked in one process
// with calls interleaved, each getting its own paths.
describe('two layouts side by side', () => {
  const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
  const IDS_ONLY: Layout = { idFolders: true, logos: false, shard: 4 };
  it.each([
    ['MA0004.1', '/api/v1/matrix/MA0004.1/', '/api/v1/matrix/MA/MA0004.1/', '/api/v1/matrix/MA00/MA0004.1/'],
    ['MA0004', '/api/v1/matrix/MA0004/', '/api/v1/matrix/MA/MA0004/', '/api/v1/matrix/MA00/MA0004/'],
    ['UN0083.1', '/api/v1/matrix/UN0083.1/', '/api/v1/matrix/UN/UN0083.1/', '/api/v1/matrix/UN00/UN0083.1/'],
  ])('%s: the flat, sharded and ids-only folders, interleaved', (id, flat, sharded, idsOnly) => {
    const seen = [detailDir(FLAT, id), detailDir(SHARDED, id), detailDir(IDS_ONLY, id), detailDir(FLAT, id)];
    expect(seen).toEqual([flat, sharded, idsOnly, flat]);
  });

  it('keeps versions folders and logos apart per layout', () => {
    expect([versionsDir(SHARDED, 'MA0004'), versionsDir(FLAT, 'MA0004')]).toEqual(['/api/v1/matrix/MA/MA0004/versions/', '/api/v1/matrix/MA0004/versions/']);
    // Logos are sharded on their own: a layout may shard the id folders only.
    expect([logoPath(SHARDED, 'MA0004.1'), logoPath(IDS_ONLY, 'MA0004.1'), logoPath(FLAT, 'MA0004.1')])
      .toEqual(['/static/logos/svg/MA/MA0004.1.svg', '/static/logos/svg/MA0004.1.svg', '/static/logos/svg/MA0004.1.svg']);
  });
});

describe('normaliseBaseUrl', () => {
  it.each([
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['https://example.org/jaspar/', 'https://example.org/jaspar'],
  ])('%s → %s', (raw, expected) => {
    expect(normaliseBaseUrl(raw)).toBe(expected);
  });
  it.each(['ftp://x', 'not a url', 'http://x/?a=1'])('rejects %s', (raw) => {
    expect(() => normaliseBaseUrl(raw)).toThrow();
  });
});

describe('list views: filters and page sizes', () => {
  it('lays out a view as folders in a fixed key order, the default page size without a folder', () => {
    expect(listDir(2)).toBe('/api/v1/matrix/page/2/');
    expect(listDir(3, 1000)).toBe('/api/v1/matrix/page_size/1000/page/3/');
    expect(listDir(1, 10, { version: 'latest', collection: 'CORE', tax_group: 'vertebrates' })).toBe('/api/v1/matrix/collection/CORE/tax_group/vertebrates/version/latest/page/1/');
    expect(listDir(1, 25, { tax_id: '9606' })).toBe('/api/v1/matrix/tax_id/9606/page_size/25/page/1/');
  });

  it('writes next/previous with every parameter, keys in alphabetical order', () => {
    expect(listQueryUrl(BASE, 'json', 2, 1000, { version: 'latest', collection: 'CORE' })).toBe('https://mirror.example.org/api/v1/matrix?collection=CORE&format=json&page=2&page_size=1000&version=latest');
    expect(listQueryUrl(BASE, 'meme', 3, 10, { tax_id: '9606' })).toBe('https://mirror.example.org/api/v1/matrix?format=meme&page=3&tax_id=9606');
  });

  it('links pages for people to list folders as they are and to other resources with ?format=api', () => {
    expect(pageHref(listDir(2, 100, { collection: 'CORE' }))).toBe('/api/v1/matrix/collection/CORE/page_size/100/page/2/');
    expect(pageHref('/api/v1/matrix/MA0004.1/')).toBe('/api/v1/matrix/MA0004.1/?format=api');
  });
});

