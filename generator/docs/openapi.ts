// An OpenAPI 3.1 description of the static API: every endpoint, every
// parameter with the values that are pre-rendered (from the release), and the
// errors for the rest. The documentation page (docs/page.ts) is generated
// from it, so the two cannot disagree.
import type { Release } from '../dataset/types.ts';
import { INDEX_FORMATS, MAX_PAGE_SIZE, PAGE_SIZE_ALIASES, SITES_FORMATS, UNSUPPORTED_PARAMS, VIEW_FORMAT_SIZES } from '../routes/table.ts';
import { FORMAT_IDS, DEFAULT_FORMAT, type FormatId } from '../formats/registry.ts';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, queryString } from '../routes/urls.ts';
import { LATEST, filterValues } from '../plan/views.ts';
import { FLAT } from '../routes/shard.ts';
import { fill, routeTable, type RouteKind } from '../routes/table.ts';

/** Public path of each resource kind, from the route table: the OpenAPI paths spell no URL. */
// Public paths only, which are the same in every layout.
const P = Object.fromEntries(routeTable(FLAT).routes.map((r) => [r.kind, r.path])) as Record<RouteKind, string>;
/** The operationId of each path's GET, from the route table (client generators name their methods by it). */
const OPERATION_IDS = new Map(routeTable(FLAT).routes.flatMap((r) => (r.operationId ? [[r.path, r.operationId] as const] : [])));

type Schema = { [key: string]: unknown };

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description: string;
  schema: Schema;
}

export interface Operation {
  /** From the route table: unique, as OpenAPI requires. */
  operationId: string;
  summary: string;
  description: string;
  parameters: Parameter[];
  /** An example request on this site (a path with a query). */
  example: string;
  responses: { [status: string]: { description: string; schema?: string } };
}

export interface OpenApi {
  openapi: string;
  info: { title: string; version: string; description: string; license: { name: string; url: string } };
  servers: { url: string }[];
  paths: { [path: string]: { get: Operation } };
  components: { schemas: { [name: string]: Schema } };
}

const format = (formats: readonly FormatId[], extra = ''): Parameter => ({
  name: 'format',
  in: 'query',
  description: `Response format (default ${DEFAULT_FORMAT}).${extra} Selecting a format with the Accept header is not possible on a static host: use ?format=.`,
  schema: { type: 'string', enum: [...formats], default: DEFAULT_FORMAT },
});
const page: Parameter = { name: 'page', in: 'query', description: 'Page number, from 1. Out of range: 404 {"detail":"Invalid page."} (unfiltered list) or {"detail":"Not found."}.', schema: { type: 'integer', minimum: 1, default: 1 } };
const pageSize: Parameter = {
  name: 'page_size',
  in: 'query',
  description: `Records a page. Pre-rendered: ${PAGE_SIZES.join(', ')}. The real service caps page_size at ${MAX_PAGE_SIZE}: ${PAGE_SIZE_ALIASES.join(', ')} redirect (301) to page_size=${MAX_PAGE_SIZE}; other values answer 501 (404 on Netlify without the edge function; the edge function answers any page size).`,
  schema: { type: 'integer', enum: [...PAGE_SIZES], default: DEFAULT_PAGE_SIZE },
};
/** release=: this release, and each other release the site holds (answered from its site under its path). */
const releaseParam = (year: number, others: readonly { year: number; prefix: string }[]): Parameter => ({
  name: 'release',
  in: 'query',
  description: others.length === 0
    ? 'The mirrored release only; any other value answers 501.'
    : `${year} (also without release=) or ${others.map((o) => `${o.year} (answered from its own site under ${o.prefix}/, whose bodies link within it; a collection it does not mirror answers 404 saying so)`).join(', ')}; any other value answers 501 (404 from the edge function). Without the edge function, Netlify answers another release by its path URLs only.`,
  schema: { type: 'integer', enum: [year, ...others.map((o) => o.year)].sort(), default: year },
});

const errors = {
  '404': { description: 'Unknown resource, page or parameter value: {"detail":"Not found."} or {"detail":"Invalid page."}.', schema: 'Error' },
  '501': { description: `A parameter the static mirror cannot answer (${UNSUPPORTED_PARAMS.join(', ')}), a filter combination or page_size that is not pre-rendered, or another release. The detail says what is supported.`, schema: 'Error' },
};

/** held: the site's other releases (each a whole site under its prefix), which release= also answers. */
export function openApi(release: Release, base: string, held: readonly { year: number; prefix: string }[] = []): OpenApi {
  const values = filterValues(release);
  const year = release.info.year;
  const filter = (name: string, description: string, enumValues: string[], type = 'string'): Parameter => ({
    name,
    in: 'query',
    description,
    schema: { type, enum: type === 'integer' ? enumValues.map(Number) : enumValues },
  });
  const filters = [
    filter('collection', 'Collection (case-sensitive on this mirror).', values.collection),
    filter('tax_group', 'Taxonomic group (case-sensitive on this mirror).', values.tax_group),
    filter('tax_id', 'NCBI taxonomy id of a species (one id; lists of ids answer 404). Not combinable with collection or tax_group.', values.tax_id, 'integer'),
    filter('version', 'latest: only the latest version of each base id.', [LATEST]),
  ];
  const bySize = FORMAT_IDS.filter((f) => VIEW_FORMAT_SIZES[f].length).map((f) => `${f} at ${VIEW_FORMAT_SIZES[f].length === PAGE_SIZES.length ? 'every page size' : VIEW_FORMAT_SIZES[f].join(' and ')}`).join(', ');
  const listParams = [format(FORMAT_IDS, ` The unfiltered list at page_size=${DEFAULT_PAGE_SIZE} has every format; filtered lists and other page sizes: ${bySize} (other pairs answer 501); bed: unfiltered list at page_size=${DEFAULT_PAGE_SIZE} only.`), page, pageSize, releaseParam(year, held)];
  const indexParams = [format(INDEX_FORMATS), page, pageSize, releaseParam(year, held)];
  const pathParam = (name: string, description: string, enumValues?: string[]): Parameter => ({ name, in: 'path', required: true, description, schema: { type: 'string', ...(enumValues ? { enum: enumValues } : {}) } });
  const listOf = (schema: string) => ({ '200': { description: 'A page of results.', schema }, ...errors });
  const firstTaxId = values.tax_id.includes('9606') ? '9606' : values.tax_id[0] ?? '';
  const firstGroup = values.tax_group.includes('vertebrates') ? 'vertebrates' : values.tax_group[0] ?? '';
  const firstCollection = values.collection[0] ?? 'CORE';
  const example = release.matrices[0]?.matrixId ?? 'MA0004.1';
  const exampleBase = example.split('.')[0];
  // JASPAR 2026 publishes no binding sites: its sites endpoint has no example to link.
  const withSites = release.matrices.find((m) => m.sites !== null)?.matrixId;

  const described: { [path: string]: { get: Omit<Operation, 'operationId'> } } = {
    [P.root]: { get: { summary: 'API root', description: 'Links to every endpoint.', parameters: [format(INDEX_FORMATS)], example: P.root, responses: { '200': { description: 'The endpoints.' } } } },
    [P.list]: {
      get: {
        summary: 'List matrices',
        description: `All matrices of ${release.info.name} ordered by name, ${DEFAULT_PAGE_SIZE} a page unless page_size says otherwise. Filters: one of collection, tax_group, tax_id, version=latest, or collection + tax_group + version together (as JASPAR's download bundles), or tax_id + version. Every value the release holds is pre-rendered. next and previous keep the format, page_size and filters, keys in alphabetical order.`,
        parameters: [...listParams, ...filters],
        example: `${P.list}${queryString({ collection: 'CORE', page_size: '1000', tax_group: firstGroup, version: LATEST }, { sorted: true })}`,
        responses: listOf('MatrixList'),
      },
    },
    [P.detail]: {
      get: {
        summary: 'One matrix',
        description: 'A matrix by its id (base_id.version); a base id alone answers its latest version.',
        parameters: [pathParam('matrix_id', 'Matrix id, e.g. MA0139.1, or a base id, e.g. MA0139.'), format(FORMAT_IDS)],
        example: fill(P.detail, { matrix_id: example }),
        responses: { '200': { description: 'The matrix.', schema: 'MatrixDetail' }, '404': errors['404'] },
      },
    },
    [P.versions]: {
      get: {
        summary: 'Versions of a matrix',
        description: 'Every version of a base id ({count, results}; not paginated).',
        parameters: [pathParam('base_id', 'Base id, e.g. MA0139.'), format(FORMAT_IDS)],
        example: fill(P.versions, { base_id: exampleBase }),
        responses: { '200': { description: 'The versions.', schema: 'MatrixVersions' }, '404': errors['404'] },
      },
    },
    [P.collections]: { get: { summary: 'Collections', description: 'The collections of the release.', parameters: indexParams, example: P.collections, responses: listOf('NamedList') } },
    [P.collection]: {
      get: { summary: 'Matrices of a collection', description: 'Same as /api/v1/matrix/?collection=…; adds tax_group and version.', parameters: [pathParam('collection', 'Collection.', values.collection), ...listParams, filters[1], filters[3]], example: `${fill(P.collection, { collection: firstCollection })}${queryString([['page_size', '1000'], ['page', '1']])}`, responses: listOf('MatrixList') },
    },
    [P.taxa]: { get: { summary: 'Taxonomic groups', description: 'The taxonomic groups of the release.', parameters: indexParams, example: P.taxa, responses: listOf('NamedList') } },
    [P.taxon]: {
      get: { summary: 'Matrices of a taxonomic group', description: 'Same as /api/v1/matrix/?tax_group=…; adds collection and version.', parameters: [pathParam('tax_group', 'Taxonomic group.', values.tax_group), ...listParams, filters[0], filters[3]], example: `${fill(P.taxon, { tax_group: firstGroup })}${queryString([['page', '1'], ['page_size', '1000']])}`, responses: listOf('MatrixList') },
    },
    [P['species-list']]: { get: { summary: 'Species', description: 'The species (NCBI taxonomy ids) the release names.', parameters: indexParams, example: P['species-list'], responses: listOf('SpeciesList') } },
    [P.species]: {
      get: { summary: 'Matrices of a species', description: 'Same as /api/v1/matrix/?tax_id=…; adds version.', parameters: [pathParam('tax_id', 'NCBI taxonomy id.', values.tax_id), ...listParams, filters[3]], example: `${fill(P.species, { tax_id: firstTaxId })}${queryString([['page', '1'], ['page_size', '1000']])}`, responses: listOf('MatrixList') },
    },
    [P.releases]: { get: { summary: 'Releases', description: 'Every JASPAR release (1 to 11), with those this mirror holds linked to their matrices and the collections each mirrors.', parameters: indexParams, example: P.releases, responses: listOf('ReleaseList') } },
    [P.release]: {
      get: { summary: 'A release', description: 'A JASPAR release, by year or by release number: its paper and, for a release the mirror holds, its matrices and which collections it mirrors.', parameters: [pathParam('release', 'Year or release number.'), format(INDEX_FORMATS)], example: fill(P.release, { release: String(year) }), responses: { '200': { description: 'The release.', schema: 'Release' }, '404': errors['404'] } },
    },
    [P.sites]: {
      get: { summary: 'Binding sites of a matrix', description: withSites ? 'The binding sites the release has for a matrix (BED lines as JSON; format=bed gives the file).' : 'The binding sites the release has for a matrix: this release has none (JASPAR published no binding-site files for it), so every matrix answers 404.', parameters: [pathParam('matrix_id', 'Matrix id.'), format(SITES_FORMATS)], example: withSites ? `${fill(P.sites, { matrix_id: withSites })}${queryString({ format: 'json' })}` : '', responses: { '200': { description: 'The sites.', schema: 'Sites' }, '404': errors['404'] } },
    },
  };

  const paths: OpenApi['paths'] = Object.fromEntries(Object.entries(described).map(([path, { get }]) => {
    const operationId = OPERATION_IDS.get(path);
    if (operationId === undefined) throw new Error(`docs/openapi.ts: the route table has no operationId for ${path}`);
    return [path, { get: { operationId, ...get } }];
  }));

  const str = { type: 'string' };
  const url = { type: 'string', format: 'uri' };
  const page_ = (item: string) => ({ type: 'object', required: ['count', 'next', 'previous', 'results'], properties: { count: { type: 'integer' }, next: { type: ['string', 'null'] }, previous: { type: ['string', 'null'] }, results: { type: 'array', items: { $ref: `#/components/schemas/${item}` } } } });
  return {
    openapi: '3.1.0',
    info: {
      title: `JASPAR REST API (static mirror of ${release.info.name})`,
      version: String(year),
      description: 'Pre-rendered responses of the JASPAR REST API. Query URLs are answered by the routing of the host (Netlify rules, nginx, Caddy and Apache configs) or by the edge function; every response is also a plain file (see /). Unsupported parameters answer 501 with a JSON detail, never data that ignores them.',
      license: { name: 'CC BY 4.0 (data)', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    servers: [{ url: base }],
    paths,
    components: {
      schemas: {
        Error: { type: 'object', required: ['detail'], properties: { detail: str } },
        MatrixListItem: { type: 'object', properties: { matrix_id: str, name: str, collection: str, base_id: str, version: str, sequence_logo: url, url } },
        MatrixList: page_('MatrixListItem'),
        MatrixVersions: { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { $ref: '#/components/schemas/MatrixListItem' } } } },
        MatrixDetail: {
          type: 'object',
          properties: {
            matrix_id: str, name: str, base_id: str, version: { type: 'integer' }, collection: str, sequence_logo: url, versions_url: url, sites_url: { type: ['string', 'null'] },
            pfm: { type: 'object', properties: { A: { type: 'array', items: { type: 'number' } }, C: { type: 'array', items: { type: 'number' } }, G: { type: 'array', items: { type: 'number' } }, T: { type: 'array', items: { type: 'number' } } } },
            class: { type: 'array', items: str }, family: { type: 'array', items: str }, tax_group: str, type: str, source: str, comment: str,
            uniprot_ids: { type: 'array', items: str }, pubmed_ids: { type: 'array', items: str },
            species: { type: 'array', items: { type: 'object', properties: { tax_id: { type: ['integer', 'null'] }, name: str } } },
          },
        },
        Named: { type: 'object', properties: { name: str, url } },
        NamedList: page_('Named'),
        Species: { type: 'object', properties: { tax_id: { type: 'integer' }, species: str, url, matrix_url: url } },
        SpeciesList: page_('Species'),
        Release: {
          type: 'object',
          properties: {
            release_number: { type: ['integer', 'null'] }, year: { type: 'integer' }, name: str, citation: str, doi: { type: ['string', 'null'] }, pubmed_id: { type: ['string', 'null'] },
            mirrored: { type: 'boolean' }, matrices: { type: ['integer', 'null'] },
            collections: { type: ['object', 'null'], additionalProperties: { type: 'string', enum: ['mirrored', 'not published'] } },
            url, matrix_url: { ...url, type: ['string', 'null'] },
          },
        },
        ReleaseList: page_('Release'),
        Sites: { type: 'object', properties: { matrix_id: str, name: str, sites_url: url, count: { type: 'integer' }, results: { type: 'array', items: { type: 'object', properties: { chrom: str, start: { type: 'integer' }, end: { type: 'integer' }, name: { type: ['string', 'null'] }, score: { type: ['number', 'string', 'null'] }, strand: { type: ['string', 'null'] } } } } } },
      },
    },
  };
}

/** The description as OpenAPI proper: the examples and schema names become OpenAPI fields. */
export function openApiDocument(api: OpenApi): unknown {
  const paths = Object.fromEntries(
    Object.entries(api.paths).map(([p, { get }]) => [
      p,
      {
        get: {
          operationId: get.operationId,
          summary: get.summary,
          description: `${get.description}\n\nExample: ${get.example}`,
          parameters: get.parameters,
          responses: Object.fromEntries(
            Object.entries(get.responses).map(([status, r]) => [
              status,
              { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.schema}` } } } } : {}) },
            ]),
          ),
        },
      },
    ]),
  );
  return { openapi: api.openapi, info: api.info, servers: api.servers, paths, components: api.components };
}
