// The route table as data (what host printers read) agrees with the URL
// functions the build writes with, in the flat and the sharded layout and
// under a path.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../generator/formats/registry.ts';
import { clientRoutes } from '../../generator/routes/client.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { fill, routeTable } from '../../generator/routes/table.ts';
import { detailDir, logoPath, versionsDir } from '../../generator/routes/urls.ts';

const SHARDED = { idFolders: true, logos: true, shard: 2 };
const route = (table: ReturnType<typeof routeTable>, kind: string) => table.routes.find((r) => r.kind === kind)!;

describe('route table', () => {
  it.each([
    [FLAT, ''],
    [SHARDED, ''],
    [FLAT, '/jaspar'],
    [SHARDED, '/jaspar'],
  ])('layout %j under "%s": folders as the build writes them', (layout, root) => {
    const table = routeTable(layout, root);
    expect(fill(route(table, 'detail').dir, { matrix_id: 'MA0004.1' }, layout)).toBe(`${root}${detailDir(layout, 'MA0004.1')}`);
    expect(fill(route(table, 'base').dir, { base_id: 'MA0004' }, layout)).toBe(`${root}${detailDir(layout, 'MA0004')}`);
    expect(fill(route(table, 'versions').dir, { base_id: 'MA0004' }, layout)).toBe(`${root}${versionsDir(layout, 'MA0004')}`);
    expect(fill(route(table, 'logo').dir, { matrix_id: 'MA0004.1' }, layout)).toBe(`${root}${logoPath(layout, 'MA0004.1')}`);
    // The public path never carries the shard.
    expect(fill(route(table, 'detail').path, { matrix_id: 'MA0004.1' }, layout)).toBe(`${root}/api/v1/matrix/MA0004.1/`);
    expect(table.errors.notFound).toBe(`${root}/api/v1/errors/not-found.json`);
    expect(clientRoutes(layout, root).list).toBe(`${root}/api/v1/matrix/`);
  });

  it('gives every format its file, extension and the real media type', () => {
    const table = routeTable(FLAT);
    expect(table.formats.map((f) => f.id)).toEqual(Object.keys(FORMATS));
    expect(table.formats.find((f) => f.id === 'jaspar')).toEqual({ id: 'jaspar', file: 'index.jaspar.txt', extension: 'jaspar.txt', mediaType: FORMATS.jaspar.mediaType });
    expect(table.formats.find((f) => f.id === 'api')!.file).toBe('index.html');
    expect(table.pageSizes).toEqual([10, 25, 50, 100, 250, 500, 1000]);
    expect(table.filterCombinations).toContainEqual(['collection', 'tax_group', 'version']);
  });

  it('asks for the layout to fill an output folder in shard folders, not for a public path', () => {
    const detail = route(routeTable(SHARDED), 'detail');
    expect(() => fill(detail.dir, { matrix_id: 'MA0004.1' })).toThrow(/pass the site's layout/);
    expect(fill(detail.path, { matrix_id: 'MA0004.1' })).toBe('/api/v1/matrix/MA0004.1/');
  });

  it('names every resource kind of the API surface once or more', () => {
    const kinds = new Set(routeTable(FLAT).routes.map((r) => r.kind));
    for (const kind of ['root', 'list', 'detail', 'base', 'versions', 'collections', 'collection', 'taxa', 'taxon', 'species-list', 'species', 'releases', 'release', 'sites', 'openapi', 'docs', 'logo', 'sites-file', 'downloads', 'search', 'home', 'error']) {
      expect(kinds, kind).toContain(kind);
    }
  });
});
