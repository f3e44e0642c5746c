// What the other endpoints add beside their resources: the routing input,
// the JSON error bodies the rules point at, copies of the index lists' first
// pages in their endpoint folders (so /api/v1/species/ works on any static
// server), the OpenAPI description and the documentation page.
// In docs/, above plan/ and beside hosting/ (test/write/folder-graph.test.ts):
// it joins the documentation with the error bodies the host rules point at.
import yaml from 'js-yaml';
import type { Release } from '../dataset/types.ts';
import { docsPage } from './page.ts';
import { openApi, openApiDocument } from './openapi.ts';
import { FORMATS } from '../formats/registry.ts';
import type { FormatContext } from '../formats/types.ts';
import { errorFiles, type RoutingInput } from '../hosting/rules.ts';
import { firstPageCopies } from '../plan/endpoints.ts';
import { formatsOf, withFormat, type PlannedResource } from '../plan/resources.ts';
import { filterValues } from '../plan/views.ts';
import { DOCS_DIR, OPENAPI_JSON, OPENAPI_YAML, basePathOf, outputPath } from '../routes/urls.ts';
import { shardsOf, type Layout } from '../routes/shard.ts';

/** What the host rules depend on: the list's length, the release, the folder layout and the path the site lives under. */
export function routingInput(release: Release, pageCount: number, layout: Layout, base?: string, held: RoutingInput['held'] = []): RoutingInput {
  const ids = release.matrices.flatMap((m) => [m.matrixId, m.baseId]);
  return { pageCount, year: release.info.year, layout, shards: layout.idFolders ? shardsOf(ids, layout) : [], root: base === undefined ? '' : basePathOf(base), held };
}

/** `copies`: false in a compact build, whose edge handler renders them (edge/render-missing.ts). */
export function apiExtras(release: Release, base: string, planned: PlannedResource[], context: FormatContext, { copies = true, held = [] as RoutingInput['held'] } = {}): [string, string][] {
  const files: [string, string][] = errorFiles({ year: release.info.year, held }).map(([p, body]) => [p.slice(1), body]);
  const byDir = new Map(planned.map((p) => [p.dir, p]));
  for (const [into, from] of copies ? firstPageCopies(filterValues(release)) : []) {
    const first = byDir.get(from);
    if (!first) throw new Error(`no first page planned in ${from} for ${into}`);
    const resource = first.resource; // built once, not once per format
    for (const format of formatsOf(first)) files.push([outputPath(into, format), FORMATS[format].render(withFormat(first, format, resource), context)]);
  }
  const api = openApi(release, base, held ?? []);
  const document = openApiDocument(api);
  files.push([OPENAPI_JSON.slice(1), `${JSON.stringify(document, null, 2)}\n`]);
  files.push([OPENAPI_YAML.slice(1), yaml.dump(document, { noRefs: true, lineWidth: -1 })]);
  files.push([`${DOCS_DIR.slice(1)}index.html`, docsPage(api, release.info.name, release.info)]);
  return files;
}
