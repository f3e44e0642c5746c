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
import { FORMATS, type FormatId } from '../formats/registry.ts';
import type { FormatContext, Resource } from '../formats/types.ts';
import { hash128 } from '../dataset/digest.ts';
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

/**
 * [output path, content, key]. `copies`: false in a compact build, whose edge handler renders them
 * (edge/render-missing.ts). `keyed`: what renders the copies beside the generator and base URL (the
 * release description as the formats print it, the layout), given when a previous build may have written
 * them: each copy of a page with its own key (plan/resources.ts) is then keyed by it and rendered only when
 * written (about 0.2 s of a rebuild, in nine formats for each filter value's first page), and a rebuild
 * whose previous build wrote it with this key neither renders nor compares it (pipeline/schedule.ts).
 */
export function apiExtras(release: Release, base: string, planned: PlannedResource[], context: FormatContext, { copies = true, held = [] as RoutingInput['held'], keyed = undefined as string | undefined } = {}): [string, string | (() => string), string?][] {
  const files: [string, string | (() => string), string?][] = errorFiles({ year: release.info.year, held }).map(([p, body]) => [p.slice(1), body]);
  const byDir = new Map(planned.map((p) => [p.dir, p]));
  for (const [into, from] of copies ? firstPageCopies(filterValues(release)) : []) {
    const first = byDir.get(from);
    if (!first) throw new Error(`no first page planned in ${from} for ${into}`);
    let resource: Resource | undefined; // built once, not once per format
    const render = (format: FormatId) => FORMATS[format].render(withFormat(first, format, (resource ??= first.resource)), context);
    for (const format of formatsOf(first)) {
      const file = outputPath(into, format);
      if (keyed !== undefined && first.key !== undefined) files.push([file, () => render(format), `first-page copy ${hash128(`${keyed}\n${from}\n${format}\n${first.key}`)}`]);
      else files.push([file, render(format)]);
    }
  }
  const api = openApi(release, base, held ?? []);
  const document = openApiDocument(api);
  const json = `${JSON.stringify(document, null, 2)}\n`;
  files.push([OPENAPI_JSON.slice(1), json]);
  // The YAML prints the document the JSON does: keyed by the JSON, it is dumped only when written (js-yaml
  // took 0.2 s of every rebuild's plan at load).
  const dump = () => yaml.dump(document, { noRefs: true, lineWidth: -1 });
  files.push(keyed !== undefined ? [OPENAPI_YAML.slice(1), dump, `openapi yaml ${hash128(json)}`] : [OPENAPI_YAML.slice(1), dump()]);
  files.push([`${DOCS_DIR.slice(1)}index.html`, docsPage(api, release.info.name, release.info)]);
  return files;
}
