// A compact build's missing files, rendered on request (issue 14). The
// compact profile (`npm run build -- --profile compact`, for Cloudflare's
// 20,000-file limit) writes the edge indexes, the binding-site BED files,
// the bulk downloads and the site's own pages, but none of the files the
// handler can render from the indexes: the list pages of every view, page
// size and format, every matrix, base id and versions folder, the API root,
// the collections, taxa, species and releases lists and the copies of their
// first pages, the binding sites endpoint, and the logos. When the host has
// no file for a path and the index says the build is compact, the handler
// asks renderFile() for it.
//
// The answer is the full build's file byte for byte: the same planning code
// decides what a resource holds (plan/resources.ts planListPages and
// planBaseId, plan/views.ts viewMatrices, plan/endpoints.ts), the same
// renderers print it, and only what the full build writes is answered (a
// format a resource is not pre-rendered in, a page past the end, a view
// that is not pre-rendered: null, the host's 404). Checked file by file
// against the full build by test/edge/compact.test.ts.
// Web-standard only (no node: imports): workerd bundles this file.
import type { Matrix, Release } from '../dataset/types.ts';
import { FORMATS, FORMAT_IDS, type FormatId } from '../formats/registry.ts';
import type { FormatContext } from '../formats/types.ts';
import { renderLogoSvg } from '../logos/svg.ts';
import { firstPageCopies, indexLists, planIndexList, planReleases, planRoot, planSites } from '../plan/endpoints.ts';
import { byBaseId, formatsOf, listChoices, planBaseId, planListPages, withFormat, type PlannedResource } from '../plan/resources.ts';
import { isPreRenderedView, latestVersions, viewMatrices } from '../plan/views.ts';
import {
  API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, LOGOS, PAGE_SIZES, ROOT_DIR, ROUTES, detailDir, fileName, indexDir, listDir, logoPath, sitesApiDir, sitesPath, versionsDir,
  type FilterKey, type Filters,
} from '../routes/urls.ts';
import { matrixOf, type EdgeIndex, type EdgeMatrices, type Record_ } from './indexes.ts';

/** What the renderer reads: the handler's indexes, loaded once per instance. */
export interface CompactSource {
  index: EdgeIndex;
  /** The index rows, in list order. */
  records: Record_[];
  context: FormatContext;
  /** The rest of every matrix (matrices.json), read when first needed. */
  matrices(): Promise<EdgeMatrices>;
  /** A file of the site (the BED files a compact build keeps), null if absent. */
  readFile(path: string): Promise<string | null>;
  /** What the renderer derives from the indexes, kept by their holder (the handler's state, once per release). */
  memo: CompactMemo;
}

/** Filled by the renderer; start with {}. */
export interface CompactMemo {
  rebuilt?: Promise<Rebuilt>;
  /** The first-page copies' folders (folder → the list page it copies). */
  copies?: Map<string, string>;
}

export interface RenderedFile {
  body: string;
  /** The format of a resource file; none for a logo. */
  format?: FormatId;
}

/** The release as the build planned it, rebuilt from the indexes once per release (CompactMemo). */
interface Rebuilt {
  /** matrices.csv row order, as Release.matrices. */
  release: Release;
  /** List order (the index's). */
  ordered: Matrix[];
  latest: Set<Matrix>;
  byId: Map<string, Matrix>;
  byBase: Map<string, Matrix[]>;
  /** The matrices of the list views asked for, by folder (bounded: folders come from requests). */
  views: Map<string, Matrix[]>;
  /** The API root, the index lists' pages and the releases, by folder, when first asked for. */
  endpoints?: Map<string, PlannedResource>;
}

/** List views whose matrices are kept per instance (the release has about 1,300). */
const MAX_VIEWS = 64;

function copiesOf(source: CompactSource): Map<string, string> {
  return (source.memo.copies ??= new Map(firstPageCopies(source.index.filterValues)));
}

function rebuild(source: CompactSource): Promise<Rebuilt> {
  let done = source.memo.rebuilt;
  if (!done) {
    done = source.matrices().then((rest) => {
      const ordered = source.records.map((r) => matrixOf(r, rest.rows[r.position]));
      return {
        release: { info: source.index.release, matrices: [...ordered].sort((a, b) => a.row - b.row) },
        ordered,
        latest: latestVersions(ordered),
        byId: new Map(ordered.map((m) => [m.matrixId, m])),
        byBase: byBaseId(ordered),
        views: new Map(),
      };
    });
    done.catch(() => {
      source.memo.rebuilt = undefined; // a failed read is tried again
    });
    source.memo.rebuilt = done;
  }
  return done;
}

/** "index.json" → json, … ; a folder URL is its index.html (api). */
const FILE_FORMATS = new Map<string, FormatId>(FORMAT_IDS.map((f) => [fileName(f), f]));

// The output paths are matched by the compiled routes (routes/paths.ts ROUTES), the ones the build
// writes them with: a folder that matches is then checked against the release (ids, filter values).
const INDEX_ENDPOINTS = ['collections', 'taxon', 'species', 'releases'];

/** Whether renderFile may answer this path (decoded): an API file or a logo; anything else it answers null. */
export const renderable = (path: string) => path.startsWith(`${API}/`) || path.startsWith(LOGOS);

/**
 * The full build's file at this URL path (decoded, relative to the site), or
 * null where the full build has none or the compact build keeps the file.
 */
export async function renderFile(path: string, source: CompactSource): Promise<RenderedFile | null> {
  const logo = ROUTES.logoFile.match(path, source.index.layout);
  if (logo) {
    const m = (await rebuild(source)).byId.get(logo.matrix_id);
    if (!m || logoPath(source.index.layout, m.matrixId) !== path) return null;
    return { body: renderLogoSvg(m.pfm) };
  }
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const format = name === '' ? 'api' : FILE_FORMATS.get(name);
  if (format === undefined || !dir.startsWith(`${API}/`)) return null;
  const planned = await plannedAt(dir, format, source);
  if (planned === null || !formatsOf(planned).includes(format)) return null;
  let resource = planned.resource;
  if (format === 'bed') {
    // The BED files are the one part of the release the indexes do not hold.
    resource = { ...resource, matrices: await Promise.all(resource.matrices.map((m) => withSites(m, source))) };
  }
  return { body: FORMATS[format].render(withFormat(planned, format, resource), source.context), format };
}

async function withSites(m: Matrix, source: CompactSource): Promise<Matrix> {
  if (m.sites === null) return m;
  const sites = await source.readFile(sitesPath(m.matrixId));
  if (sites === null) throw new Error(`${sitesPath(m.matrixId)} is missing: the compact build keeps the BED files (rebuild the site)`);
  return { ...m, sites };
}

/** The planned resource whose files lie in `dir`, as the full build plans it. */
async function plannedAt(dir: string, format: FormatId, source: CompactSource): Promise<PlannedResource | null> {
  const { index } = source;
  // /api/v1/matrix/index.html: the list's first page for people (build.ts).
  if (dir === `${LIST}/`) return format === 'api' ? plannedAt(listDir(1), format, source) : null;
  const copy = copiesOf(source).get(dir);
  if (copy !== undefined) return plannedAt(copy, format, source);

  const view = ROUTES.listPage.match(dir);
  if (view) {
    const { page, page_size: size, ...named } = view;
    const filters = filtersOf(named, index);
    const pageSize = size === undefined ? undefined : Number(size);
    const number = Number(page);
    if (filters === null || listDir(number, pageSize, filters) !== dir) return null;
    if (pageSize !== undefined && !(PAGE_SIZES as readonly number[]).includes(pageSize)) return null;
    const r = await rebuild(source);
    const viewDir = listDir(1, pageSize, filters);
    let matrices = r.views.get(viewDir);
    if (matrices === undefined) {
      if (r.views.size >= MAX_VIEWS) r.views.clear();
      r.views.set(viewDir, (matrices = viewMatrices(r.ordered, filters, r.latest)));
    }
    return planListPages(matrices, pageSize ?? DEFAULT_PAGE_SIZE, filters, index.base, index.layout, listChoices(index.filterValues), index.links)[number - 1] ?? null;
  }
  const indexPage = ROUTES.indexPage.match(dir);
  if (dir === ROOT_DIR || (indexPage && INDEX_ENDPOINTS.includes(indexPage.endpoint)) || ROUTES.release.match(dir)) {
    const r = await rebuild(source);
    // A site of several releases: /api/v1/releases/ says what each holds (none: this release alone).
    const held = index.releases?.map((x) => x.held);
    r.endpoints ??= new Map([
      planRoot(r.release, index.base, index.links),
      ...indexLists(r.release, index.base, held, index.links).flatMap((list) => planIndexList(list, index.base, index.links)),
      ...planReleases(r.release, index.base, held, index.links),
    ].map((p) => [p.dir, p]));
    return r.endpoints.get(dir) ?? null;
  }
  const sites = ROUTES.sites.match(dir);
  if (sites) {
    const r = await rebuild(source);
    const m = r.byId.get(sites.matrix_id);
    if (!m || m.sites === null || sitesApiDir(m.matrixId) !== dir) return null;
    return planSites({ info: r.release.info, matrices: [await withSites(m, source)] }, index.base, index.layout)[0] ?? null;
  }
  // A matrix id's folder, a base id's, or a base id's versions, in the site's layout.
  const id = ROUTES.detailDir.match(dir, index.layout)?.matrix_id ?? ROUTES.baseDir.match(dir, index.layout)?.base_id ?? ROUTES.versionsDir.match(dir, index.layout)?.base_id;
  if (id !== undefined) {
    const r = await rebuild(source);
    const baseId = r.byId.get(id)?.baseId ?? (r.byBase.has(id) ? id : undefined);
    if (baseId === undefined) return null;
    return planBaseId(baseId, r.byBase.get(baseId)!, index.base, index.layout, index.links).find((p) => p.dir === dir) ?? null;
  }
  return null;
}

/** The filters of a list view folder (its values by key, as the list route matched them): a pre-rendered combination of values the release holds, or null. */
function filtersOf(values: Record<string, string>, index: EdgeIndex): Filters | null {
  const filters: Filters = {};
  for (const [key, value] of Object.entries(values)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) return null;
    filters[key as FilterKey] = value;
  }
  return isPreRenderedView(filters, index.filterValues) ? filters : null;
}
