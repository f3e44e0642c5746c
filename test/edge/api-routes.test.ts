// The edge handler's URL → file mapping (generator/edge/api-routes.ts) for
// every resource kind of the route table, in the flat and the sharded
// layout and for a site under a path: the file it names is the one the
// build writes (the urls.ts functions that place them), so Cloudflare, which
// has no query rules, answers every API URL from the right file.
import { describe, expect, it } from 'vitest';
import { apiRoutes, apiTarget, LAYOUT_KINDS, matchRoute, type ApiTarget } from '../../generator/edge/api-routes.ts';
import { parseQuery } from '../../generator/edge/query.ts';
import { FLAT, type Layout } from '../../generator/routes/shard.ts';
import { routeTable, type RouteKind } from '../../generator/routes/table.ts';
import { indexDir, outputPath, releaseDir, sitesApiDir, unsupportedPath } from '../../generator/routes/urls.ts';

const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };
const target = (layout: Layout, root: string, url: string, accept: string | null = null): ApiTarget | null => {
  const [pathname, search = ''] = url.split('?');
  return apiTarget(apiRoutes(layout, root), pathname, parseQuery(search), accept);
};
const file = (t: ApiTarget | null) => (t?.kind === 'file' || t?.kind === 'resource' ? t.path : t?.kind === 'index-page' ? t.file(t.page === 'last' || t.page === null ? 1 : t.page) : null);

describe.each([
  ['flat, at the root', FLAT, ''],
  ['sharded, at the root', SHARDED, ''],
  ['flat, under /jaspar', FLAT, '/jaspar'],
  ['sharded, under /mirror/jaspar', SHARDED, '/mirror/jaspar'],
] as const)('api-routes: %s', (_, layout, root) => {
  const at = (path: string) => `${root}${path}`;

  // [request (path and query, without the site's path), Accept, file (without the site's path), format]
  it.each([
    ['/api/v1/', null, `/${outputPath('/api/v1/', 'json')}`, 'json'],
    ['/api/v1', null, '/api/v1/index.json', 'json'],
    ['/api/v1/?format=yaml', null, '/api/v1/index.yaml', 'yaml'],
    ['/api/v1/?format=api', null, '/api/v1/index.html', 'api'],
    ['/api/v1/', 'application/javascript', '/api/v1/index.js', 'jsonp'],
    ['/api/v1/releases/2024/', null, `${releaseDir(2024)}index.json`, 'json'],
    ['/api/v1/releases/10?format=jsonp', null, `${releaseDir(10)}index.js`, 'jsonp'],
    ['/api/v1/sites/MA0014.2/', null, `${sitesApiDir('MA0014.2')}index.json`, 'json'],
    ['/api/v1/sites/MA0014.2/?format=bed', null, `${sitesApiDir('MA0014.2')}index.bed.txt`, 'bed'],
    ['/api/v1/sites/MA0014.2', 'text/bed', `${sitesApiDir('MA0014.2')}index.bed.txt`, 'bed'],
  ] as const)('%s [Accept %s] → %s', (url, accept, path, format) => {
    expect(target(layout, root, at(url), accept)).toEqual({ kind: 'resource', route: expect.any(String), path: at(path), format });
  });

  it.each([
    ['/api/v1/collections/', 'collections', 1, 10, 'json'],
    ['/api/v1/collections?format=yaml&page=1', 'collections', 1, 10, 'yaml'],
    ['/api/v1/taxon/?page_size=25&format=jsonp', 'taxon', 1, 25, 'jsonp'],
    ['/api/v1/species/?page=3', 'species', 3, 10, 'json'],
    ['/api/v1/species/?page=2&page_size=2000', 'species', 2, 1000, 'json'],
    ['/api/v1/releases/?format=api', 'releases', 1, 10, 'api'],
  ] as const)('index list %s → page %i of %s at %i a page', (url, endpoint, page, pageSize, format) => {
    const t = target(layout, root, at(url));
    expect(t?.kind).toBe('index-page');
    if (t?.kind !== 'index-page') return;
    expect([t.endpoint, t.page, t.pageSize, t.format]).toEqual([endpoint, page, pageSize, format]);
    expect(t.file(page)).toBe(at(`/${outputPath(indexDir(endpoint, page, pageSize), format)}`));
    expect(t.itemsFile(1)).toBe(at(`/${outputPath(indexDir(endpoint, 1, 1000), 'json')}`));
  });

  it('index lists: any page size (rendered, no file), page=last, pages that are not pages', () => {
    const odd = target(layout, root, at('/api/v1/species/?page_size=7&page=last'));
    expect(odd).toMatchObject({ kind: 'index-page', pageSize: 7, page: 'last' });
    expect(odd?.kind === 'index-page' && odd.file(1)).toBe(null);
    for (const page of ['0', '-1', 'abc', '']) expect(target(layout, root, at(`/api/v1/taxon/?page=${page}`))).toMatchObject({ page: null });
    for (const size of ['0', '-3', 'x']) expect(target(layout, root, at(`/api/v1/taxon/?page_size=${size}`))).toMatchObject({ pageSize: 10 });
  });

  it('refuses what the rules refuse, with their error files; unknown formats and Accept as the service', () => {
    expect(target(layout, root, at('/api/v1/collections/?search=x'))).toMatchObject({ kind: 'error', status: 501, file: at(unsupportedPath('param-search')) });
    expect(target(layout, root, at('/api/v1/species/?tax_group=plants'))).toMatchObject({ kind: 'error', status: 501, file: at(unsupportedPath('filters')) });
    expect(target(layout, root, at('/api/v1/sites/MA0014.2/?format=meme'))).toMatchObject({ kind: 'error', status: 501, file: at(unsupportedPath('sites-format')) });
    expect(target(layout, root, at('/api/v1/?format=xml'))).toMatchObject({ kind: 'error', status: 404 });
    expect(target(layout, root, at('/api/v1/taxon/'), 'text/meme')).toMatchObject({ kind: 'error', status: 406 });
  });

  it('logos: the file in its shard folder when the layout shards logos', () => {
    expect(target(layout, root, at('/static/logos/svg/MA0004.1.svg'))).toEqual({ kind: 'file', route: 'logo', path: at(layout.logos ? '/static/logos/svg/MA/MA0004.1.svg' : '/static/logos/svg/MA0004.1.svg') });
    expect(LAYOUT_KINDS.has('logo')).toBe(true);
  });

  it.each([
    ['/api/v1/openapi.json', 'openapi'],
    ['/api/v1/openapi.yaml', 'openapi'],
    ['/api/v1/live-api/', 'docs'],
    ['/download/bed_files/MA0014.2.bed', 'sites-file'],
    ['/download/', 'downloads'],
    ['/search/?q=sox', 'search'],
    ['/', 'home'],
    ['/404.html', 'error'],
  ] as const)('%s: the file itself (%s)', (url, route) => {
    expect(target(layout, root, at(url))).toEqual({ kind: 'file', route, path: at(url.split('?')[0]) });
  });

  it.each([
    ['/api/v1/matrix/', 'list'],
    ['/api/v1/matrix', 'list'],
    ['/api/v1/matrix/MA0004.1/', 'detail'],
    ['/api/v1/matrix/MA0004.1', 'detail'],
    ['/api/v1/matrix/MA0004/', 'base'],
    ['/api/v1/matrix/MA0004/versions/', 'versions'],
    ['/api/v1/collections/CORE/', 'collection'],
    ['/api/v1/taxon/plants', 'taxon'],
    ['/api/v1/species/9606/', 'species'],
  ] as const)('%s: the handler\'s own %s route', (url, route) => {
    expect(target(layout, root, at(url))).toEqual({ kind: 'matrix', route });
  });

  it('paths no route takes: the files by their path URL, other folders', () => {
    for (const url of ['/api/v1/matrix/page/2/index.json', '/api/v1/collections/index.json', '/api/v1/sites/MA0014.2/index.bed.txt', '/static/api/site.css', '/api/v1/nothing/', '/api/v1/releases/x/']) {
      expect(target(layout, root, at(url)), url).toBe(null);
    }
    if (root) expect(target(layout, root, '/api/v1/'), 'the API outside the site\'s path').toBe(null);
  });

  it('every kind of the route table is matched by its own public path', () => {
    const table = routeTable(layout, root);
    const sample: Record<string, string> = { matrix_id: 'MA0004.1', base_id: 'MA0004', collection: 'CORE', tax_group: 'plants', tax_id: '9606', release: '2024' };
    const kinds = new Set<RouteKind>();
    for (const route of table.routes) {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => sample[name]);
      const found = matchRoute(apiRoutes(layout, root), path);
      expect(found?.route.kind, path).toBe(route.kind);
      kinds.add(route.kind);
      expect(target(layout, root, path), path).not.toBe(null);
    }
    expect(kinds.size).toBe(new Set(table.routes.map((r) => r.kind)).size);
  });

  it('the file named is where the build writes it (file() for every resource kind with formats)', () => {
    expect(file(target(layout, root, at('/api/v1/taxon/?page=1&page_size=50')))).toBe(at(`/${outputPath(indexDir('taxon', 1, 50), 'json')}`));
  });
});
