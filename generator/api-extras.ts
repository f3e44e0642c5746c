// What the other endpoints add beside their resources: the routing input,
// the JSON error bodies the rules point at, copies of the index lists' first
// pages in their endpoint folders (so /api/v1/species/ works on any static
// server), the OpenAPI description and the documentation page.
import yaml from 'js-yaml';
import type { Release } from './dataset/types.ts';
import { docsPage } from './docs/page.ts';
import { openApi, openApiDocument } from './docs/openapi.ts';
import { INDEX_FORMATS } from './endpoints.ts';
import { FORMATS } from './formats/registry.ts';
import type { FormatContext } from './formats/types.ts';
import { errorFiles, type RoutingInput } from './hosting/rules.ts';
import { formatsOf, withFormat, type PlannedResource } from './resources.ts';
import { filterValues } from './views.ts';
import { API, DEFAULT_PAGE_SIZE, DOCS_DIR, OPENAPI_JSON, OPENAPI_YAML, indexDir, listDir, outputPath } from './routes/urls.ts';

export function routingInput(release: Release, pageCount: number): RoutingInput {
  return { pageCount, year: release.info.year };
}

export function apiExtras(release: Release, base: string, planned: PlannedResource[], context: FormatContext): [string, string][] {
  const files: [string, string][] = errorFiles({ year: release.info.year }).map(([p, body]) => [p.slice(1), body]);
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    const first = planned.find((p) => p.dir === indexDir(endpoint, 1));
    if (!first) throw new Error(`no first page planned for /api/v1/${endpoint}/`);
    for (const format of INDEX_FORMATS) files.push([outputPath(`${API}/${endpoint}/`, format), FORMATS[format].render(withFormat(first, format), context)]);
  }
  // /api/v1/collections/CORE/ (the `url` of a collection, taxon or species)
  // as a folder too, holding the first page of its matrices, so that any
  // static server answers it; Netlify's rules answer its queries.
  const values = filterValues(release);
  for (const [endpoint, key] of [['collections', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const) {
    for (const value of values[key]) {
      const first = planned.find((p) => p.dir === listDir(1, DEFAULT_PAGE_SIZE, { [key]: value }));
      if (!first) throw new Error(`no first page planned for ${key}=${value}`);
      for (const format of formatsOf(first)) files.push([outputPath(`${API}/${endpoint}/${value}/`, format), FORMATS[format].render(withFormat(first, format), context)]);
    }
  }
  const api = openApi(release, base);
  const document = openApiDocument(api);
  files.push([OPENAPI_JSON.slice(1), `${JSON.stringify(document, null, 2)}\n`]);
  files.push([OPENAPI_YAML.slice(1), yaml.dump(document, { noRefs: true, lineWidth: -1 })]);
  files.push([`${DOCS_DIR.slice(1)}index.html`, docsPage(api, release.info.name)]);
  return files;
}
