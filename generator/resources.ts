// Plans every resource of the API from a release: the list pages, each
// matrix, each base id (its latest version) and each base id's versions, as
// JSON bodies exactly as the real service writes them plus navigation.
import type { Matrix, Release } from './dataset/types.ts';
import { FORMAT_IDS, type FormatId } from './formats/registry.ts';
import { PyFloat, type Json, type Link, type Nav, type Resource } from './formats/types.ts';
import { paginate } from './routes/paginate.ts';
import {
  LIST, detailDir, detailUrl, listDir, listQueryUrl, logoPath, logoUrl, pageHref, pathUrl, sitesUrl, versionsDir, versionsUrl,
} from './routes/urls.ts';

export const PAGE_SIZE = 10;

export interface PlannedResource {
  /** Folder of the resource (path URL, ends with "/"). */
  dir: string;
  resource: Resource;
  /** List pages: the neighbours, whose query URLs keep the requested format. */
  neighbours?: { previous: number | null; next: number | null };
}

/** By name, compared by code point (UTF-8 bytes order the same way), ties in row order. */
export function listOrder(matrices: readonly Matrix[]): Matrix[] {
  const keys = new Map(matrices.map((m) => [m, Buffer.from(m.name, 'utf8')]));
  return [...matrices].sort((a, b) => Buffer.compare(keys.get(a)!, keys.get(b)!) || a.row - b.row);
}

export function listItem(m: Matrix, base: string): Json {
  return {
    matrix_id: m.matrixId,
    name: m.name,
    collection: m.collection,
    base_id: m.baseId,
    version: String(m.version),
    sequence_logo: logoUrl(base, m.matrixId),
    url: detailUrl(base, m.matrixId),
  };
}

export function detailBody(m: Matrix, base: string): Json {
  const body: { [key: string]: Json } = {
    matrix_id: m.matrixId,
    name: m.name,
    base_id: m.baseId,
    version: m.version,
    collection: m.collection,
    sequence_logo: logoUrl(base, m.matrixId),
    versions_url: versionsUrl(base, m.baseId),
    sites_url: m.sites !== null ? sitesUrl(base, m.matrixId) : null,
    pfm: { A: floats(m.pfm.A), C: floats(m.pfm.C), G: floats(m.pfm.G), T: floats(m.pfm.T) },
    class: m.tfClass,
    family: m.tfFamily,
  };
  // Single-valued annotations are left out when the release has no value.
  if (m.taxGroup) body.tax_group = m.taxGroup;
  if (m.dataType) body.type = m.dataType;
  if (m.source) body.source = m.source;
  if (m.comment) body.comment = m.comment;
  body.uniprot_ids = m.uniprotIds;
  body.pubmed_ids = m.pubmedIds;
  body.species = m.species.map((s) => ({ tax_id: s.taxId, name: s.name }));
  return body;
}

const floats = (values: number[]) => values.map((v) => new PyFloat(v));

function formatLinks(dir: string): Nav['formats'] {
  return FORMAT_IDS.map((format) => ({ format, href: format === 'api' ? pageHref(dir) : pathUrl(dir, format) }));
}

const LIST_CRUMB: Link = { label: 'Matrix list', href: listDir(1) };

export function planResources(release: Release, base: string): PlannedResource[] {
  const planned: PlannedResource[] = [];
  const ordered = listOrder(release.matrices);
  const pages = paginate(ordered, PAGE_SIZE);
  const count = ordered.length;
  for (const page of pages) {
    const window: Link[] = [];
    for (let n = Math.max(1, page.number - 3); n <= Math.min(page.last, page.number + 3); n++) window.push({ label: String(n), href: listDir(n) });
    const nav: Nav = {
      title: 'Matrix List',
      dir: listDir(page.number),
      request: `${LIST}/?format=api&page=${page.number}`,
      formats: formatLinks(listDir(page.number)),
      pages: {
        current: page.number,
        last: page.last,
        first: listDir(1),
        previous: page.previous === null ? null : listDir(page.previous),
        next: page.next === null ? null : listDir(page.next),
        lastHref: listDir(page.last),
        window,
      },
      breadcrumbs: [LIST_CRUMB],
    };
    planned.push({
      dir: listDir(page.number),
      resource: {
        kind: 'list',
        // next/previous depend on the requested format: withFormat() fills them in.
        body: { count, next: null, previous: null, results: page.items.map((m) => listItem(m, base)) },
        matrices: page.items,
        nav,
      },
      neighbours: { previous: page.previous, next: page.next },
    });
  }

  const byBase = new Map<string, Matrix[]>();
  for (const m of release.matrices) {
    const list = byBase.get(m.baseId) ?? [];
    list.push(m);
    byBase.set(m.baseId, list);
  }
  for (const [baseId, unsorted] of [...byBase].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const versions = [...unsorted].sort((a, b) => a.version - b.version);
    const versionLinks: Link[] = versions.map((v) => ({ label: v.matrixId, href: pageHref(detailDir(v.matrixId)) }));
    const versionsCrumb: Link = { label: `${baseId} versions`, href: pageHref(versionsDir(baseId)) };
    for (const m of versions) {
      planned.push({ dir: detailDir(m.matrixId), resource: detailResource(m, base, versionLinks, versionsCrumb) });
    }
    // A base id without a version answers with its latest version.
    const latest = versions[versions.length - 1];
    planned.push({ dir: detailDir(baseId), resource: detailResource(latest, base, versionLinks, versionsCrumb, `${LIST}/${baseId}/`) });
    planned.push({
      dir: versionsDir(baseId),
      resource: {
        kind: 'versions',
        body: { count: versions.length, results: versions.map((v) => listItem(v, base)) },
        matrices: versions,
        nav: {
          title: `${baseId} versions`,
          dir: versionsDir(baseId),
          request: `${LIST}/${baseId}/versions/?format=api`,
          formats: formatLinks(versionsDir(baseId)),
          breadcrumbs: [LIST_CRUMB, versionsCrumb],
        },
      },
    });
  }
  return planned;
}

function detailResource(m: Matrix, base: string, versions: Link[], versionsCrumb: Link, request = `${LIST}/${m.matrixId}/`): Resource {
  return {
    kind: 'detail',
    body: detailBody(m, base),
    matrices: [m],
    nav: {
      title: `${m.matrixId} ${m.name}`,
      dir: request.replace(/\?.*$/, ''),
      request: `${request}?format=api`,
      formats: formatLinks(detailDir(m.matrixId)),
      logo: logoPath(m.matrixId),
      versions,
      breadcrumbs: [LIST_CRUMB, versionsCrumb, { label: m.matrixId, href: pageHref(detailDir(m.matrixId)) }],
    },
  };
}

/** The resource as a request for `format` sees it: list pages carry next/previous in that format. */
export function withFormat(planned: PlannedResource, format: FormatId, base: string): Resource {
  const { resource, neighbours } = planned;
  if (!neighbours) return resource;
  const body = resource.body as { [key: string]: Json };
  const query = (page: number | null) => (page === null ? null : listQueryUrl(base, format, page));
  return { ...resource, body: { count: body.count, next: query(neighbours.next), previous: query(neighbours.previous), results: body.results } };
}
