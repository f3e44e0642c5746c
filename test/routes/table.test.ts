// The route table as data (what host printers read) agrees with the URL
// functions the build writes with, in the flat and the sharded layout and
// under a path.
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../generator/formats/registry.ts';
import { clientRoutes } from '../../generator/routes/client.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { fill, routeTable } from '../../generator/routes/table.ts';
import { detailDir, indexDir, listDir, listViewDir, logoPath, versionsDir } from '../../generator/routes/urls.ts';
import { ROUTES } from '../../generator/routes/paths.ts';
import { compileRoute, partAround, templateOf } from '../../generator/routes/compile.ts';
import { openApi, openApiDocument } from '../../generator/docs/openapi.ts';
import { sharedRelease } from '../support/release.ts';

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

  it('gives every operation of the service one operationId, and the OpenAPI description carries each once', () => {
    const table = routeTable(FLAT);
    const ids = table.routes.flatMap((r) => (r.operationId ? [r.operationId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const doc = openApiDocument(openApi(sharedRelease(), 'http://jaspar.test')) as { paths: Record<string, { get: { operationId: string } }> };
    const described = Object.fromEntries(Object.entries(doc.paths).map(([path, { get }]) => [path, get.operationId]));
    // Every operation of the table is described, under its own path, and nothing else.
    expect(described).toEqual(Object.fromEntries(table.routes.flatMap((r) => (r.operationId ? [[r.path, r.operationId]] : []))));
    expect(Object.keys(described)).toHaveLength(13);
    expect(described['/api/v1/matrix/{matrix_id}/']).toBe('matrix_read');
  });
});

describe('compiled routes', () => {
  it.each([
    [FLAT, 'MA0004.1', '/api/v1/matrix/MA0004.1/', '/static/logos/svg/MA0004.1.svg'],
    [SHARDED, 'MA0004.1', '/api/v1/matrix/MA/MA0004.1/', '/static/logos/svg/MA/MA0004.1.svg'],
    [{ idFolders: true, logos: false, shard: 3 }, 'MA0004.1', '/api/v1/matrix/MA0/MA0004.1/', '/static/logos/svg/MA0004.1.svg'],
  ])('layout %j: the builder and the matcher of one pattern agree', (layout, id, dir, logo) => {
    expect(ROUTES.detailDir.build({ matrix_id: id }, layout)).toBe(dir);
    expect(ROUTES.detailDir.match(dir, layout)).toEqual({ matrix_id: id });
    expect(ROUTES.logoFile.build({ matrix_id: id }, layout)).toBe(logo);
    expect(ROUTES.logoFile.match(logo, layout)).toEqual({ matrix_id: id });
    // A path of another layout is not this layout's.
    expect(ROUTES.detailDir.match(`/api/v1/matrix/${id}/`, layout)).toEqual(layout.idFolders ? null : { matrix_id: id });
  });

  it('builds list views with the optional folders in filter order, and matches them back', () => {
    const dir = listDir(3, 100, { version: 'latest', collection: 'CORE' });
    expect(dir).toBe('/api/v1/matrix/collection/CORE/version/latest/page_size/100/page/3/');
    expect(ROUTES.listPage.match(dir)).toEqual({ collection: 'CORE', version: 'latest', page_size: '100', page: '3' });
    expect(listDir(1)).toBe('/api/v1/matrix/page/1/');
    expect(ROUTES.listPage.match('/api/v1/matrix/page/1/')).toEqual({ page: '1' });
    expect(listViewDir(':page_size', { tax_id: '9606' })).toBe('/api/v1/matrix/tax_id/9606/page_size/:page_size/');
    expect(indexDir('species', 2, 25)).toBe('/api/v1/species/page_size/25/page/2/');
    expect(ROUTES.listPage.match('/api/v1/matrix/version/latest/collection/CORE/page/1/')).toBeNull();
  });

  it('gives the host printers the pieces around a parameter and folder templates', () => {
    expect(partAround(ROUTES.listView, 'tax_group')).toEqual(['tax_group/', '/']);
    expect(partAround(ROUTES.listPage, 'page')).toEqual(['page/', '/']);
    expect(templateOf(ROUTES.versionsDir, SHARDED, { base_id: 'id' })).toEqual(['/api/v1/matrix/', { slot: 'shard' }, '/', { slot: 'id' }, '/versions/']);
    expect(templateOf(ROUTES.versionsDir, FLAT, { base_id: 'id' })).toEqual(['/api/v1/matrix/', { slot: 'id' }, '/versions/']);
  });

  it('refuses a pattern it cannot read, and an output folder in shard folders without the layout', () => {
    expect(() => compileRoute('/a/[b/{b}/')).toThrow(/"\[" without "\]"/);
    expect(() => compileRoute('/a/{shard}/')).toThrow(/must stand before the id/);
    expect(() => compileRoute('/a/[x/[y]]/')).toThrow(/do not nest/);
    expect(() => ROUTES.detailDir.build({ matrix_id: 'MA0004.1' })).toThrow(/pass the site's layout/);
    expect(() => ROUTES.detail.build({})).toThrow(/no value for \{matrix_id\}/);
  });
});
