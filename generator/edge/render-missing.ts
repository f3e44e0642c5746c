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
  API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, LOGOS, PAGE_SIZES, ROOT_DIR, detailDir, fileName, indexDir, listDir, logoPath, sitesApiDir, sitesPath, versionsDir,
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

const LIST_VIEW = new RegExp(`^${LIST}/((?:[a-z_]+/[^/]+/)*?)(?:page_size/([0-9]+)/)?page/([0-9]+)/$`);
/** A matrix or base id folder, or a base id's versions (in a shard folder when sharded: the canonical folder is checked after). */
const ID_DIR = new RegExp(`^${LIST}/(?:[^/]+/)??([^/]+)/(versions/)?$`);
const INDEX_LIST = new RegExp(`^${API}/(collections|taxon|species|releases)/(?:page_size/([0-9]+)/)?page/([0-9]+)/$`);
const RELEASE_DIR = new RegExp(`^${API}/releases/[^/]+/$`);
const SITES_DIR = new RegExp(`^${API}/sites/([^/]+)/$`);
const LOGO = new RegExp(`^${LOGOS}(?:[^/]+/)?([^/]+)\\.svg$`);

/** Whether renderFile may answer this path (decoded): an API file or a logo; anything else it answers null. */
export const renderable = (path: string) => path.startsWith(`${API}/`) || LOGO.test(path);

/**
 * The full build's file at this URL path (decoded, relative to the site), or
 * null where the full build has none or the compact build keeps the file.
 */
export async function renderFile(path: string, source: CompactSource): Promise<RenderedFile | null> {
  const logo = LOGO.exec(path);
  if (logo) {
    const m = (await rebuild(source)).byId.get(logo[1]);
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

  const view = LIST_VIEW.exec(dir);
  if (view) {
    const filters = filtersOf(view[1], index);
    const pageSize = view[2] === undefined ? undefined : Number(view[2]);
    const number = Number(view[3]);
    if (filters === null || listDir(number, pageSize, filters) !== dir) return null;
    if (pageSize !== undefined && !(PAGE_SIZES as readonly number[]).includes(pageSize)) return null;
    const r = await rebuild(source);
    const viewDir = listDir(1, pageSize, filters);
    let matrices = r.views.get(viewDir);
    if (matrices === undefined) {
      if (r.views.size >= MAX_VIEWS) r.views.clear();
      r.views.set(viewDir, (matrices = viewMatrices(r.ordered, filters, r.latest)));
    }
    return planListPages(matrices, pageSize ?? DEFAULT_PAGE_SIZE, filters, index.base, index.layout, listChoices(index.filterValues))[number - 1] ?? null;
  }
  if (dir === ROOT_DIR || INDEX_LIST.test(dir) || RELEASE_DIR.test(dir)) {
    const r = await rebuild(source);
    // A site of several releases: /api/v1/releases/ says what each holds (none: this release alone).
    const held = index.releases?.map((x) => x.held);
    r.endpoints ??= new Map([
      planRoot(r.release, index.base),
      ...indexLists(r.release, index.base, held).flatMap((list) => planIndexList(list, index.base)),
      ...planReleases(r.release, index.base, held),
    ].map((p) => [p.dir, p]));
    return r.endpoints.get(dir) ?? null;
  }
  const sites = SITES_DIR.exec(dir);
  if (sites) {
    const r = await rebuild(source);
    const m = r.byId.get(sites[1]);
    if (!m || m.sites === null || sitesApiDir(m.matrixId) !== dir) return null;
    return planSites({ info: r.release.info, matrices: [await withSites(m, source)] }, index.base, index.layout)[0] ?? null;
  }
  const id = ID_DIR.exec(dir);
  if (id) {
    const r = await rebuild(source);
    const baseId = r.byId.get(id[1])?.baseId ?? (r.byBase.has(id[1]) ? id[1] : undefined);
    if (baseId === undefined) return null;
    if (id[2] !== undefined ? versionsDir(index.layout, id[1]) !== dir : detailDir(index.layout, id[1]) !== dir) return null;
    return planBaseId(baseId, r.byBase.get(baseId)!, index.base, index.layout).find((p) => p.dir === dir) ?? null;
  }
  return null;
}

/** The filters of a list view folder ("collection/CORE/version/latest/"): a pre-rendered combination of values the release holds, or null. */
function filtersOf(text: string, index: EdgeIndex): Filters | null {
  const parts = text.split('/').slice(0, -1);
  const filters: Filters = {};
  for (let i = 0; i < parts.length; i += 2) {
    const key = parts[i] as FilterKey;
    if (!(FILTER_KEYS as readonly string[]).includes(key) || filters[key] !== undefined) return null;
    filters[key] = parts[i + 1];
  }
  return isPreRenderedView(filters, index.filterValues) ? filters : null;
}
