// The matrix list with the service's semantics: the path's filter, then the
// query's (select.ts), any page size, page=last and "Invalid page.", links
// that keep every parameter as DRF writes them. A pre-rendered page whose
// own query URL was asked is its file; everything else is rendered with the
// build's renderers (generator/formats/*, plan/resources.ts listItem).
import { FORMATS, FORMAT_IDS } from '../formats/registry.ts';
import type { Json, Resource } from '../formats/types.ts';
import type { Matrix } from '../dataset/types.ts';
import { LIST_CRUMB, listChoices, listItem, listPageNav, listViewFormats, pagesNav } from '../plan/resources.ts';
import { isPreRenderedView } from '../plan/views.ts';
import type { Page } from '../routes/paginate.ts';
import { MAX_PAGE_SIZE } from '../routes/table.ts';
import { DEFAULT_PAGE_SIZE, FILTER_KEYS, PAGE_SIZES, listDir, listQueryUrl, outputPath, sitesPath, type FilterKey, type Filters } from '../routes/urls.ts';
import { pageAt, pageLink, staticFile, type Ctx } from './context.ts';
import { matrixOf, unmirroredOf, type Record_ } from './indexes.ts';
import { pageNumberOf, pageSizeOf, pyInt, rewriteQuery } from './query.ts';
import { NOT_FOUND, answer, error, otherCallback } from './responses.ts';
import { BadParameter, SELECTION_KEYS, select, selectionOf } from './select.ts';
import { matricesOf } from './state.ts';

export async function list(ctx: Ctx): Promise<Response> {
  const { request, state, get, format, callback } = ctx;
  // A collection of JASPAR's release that the mirror does not hold: why, not an empty list.
  const lacking = unmirroredOf(state.index, { collection: ctx.pathFilter?.[0] === 'collection' ? ctx.pathFilter[1] : get('collection') });
  if (lacking) return error(request, 404, lacking.detail, callback);
  let records: Record_[];
  try {
    let from = state.records;
    if (ctx.pathFilter) {
      const [key, value] = ctx.pathFilter;
      // The path names one value the release holds (case-folded as the filter); another is not found, as on the static mirror.
      if (key === 'tax_id' && (value.includes(',') || pyInt(value) === null)) return error(request, 404, NOT_FOUND, callback);
      from = select(from, selectionOf((k) => (k === key ? value : undefined)));
      if (from.length === 0) return error(request, 404, NOT_FOUND, callback);
    }
    // The query's filters over what the path left (version=latest among those); the whole list's sorts are kept.
    records = select(from, selectionOf(get), from === state.records ? state.sorts : undefined);
  } catch (e) {
    if (e instanceof BadParameter) return error(request, 400, e.message, callback);
    throw e;
  }
  const pageSize = pageSizeOf(get('page_size'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const page = pageAt(records, pageSize, pageNumberOf(get('page')));
  if (page === null) return error(request, 404, 'Invalid page.', callback);
  const view = ownView(ctx, pageSize);
  // A page of a pre-rendered view is answered with its file, as every host
  // answers it (the static hosts' routing maps the query, slash or not, in
  // any order, other parameters ignored, to the file): links in the list
  // contract's form ({base}/api/v1/matrix?format=F&page=N…). Without the file
  // (a compact build) the page is rendered here with the same links and the
  // file's navigation for people. Other lists link as the service does, from
  // the request (its path, its parameters in their order).
  const own = (n: number | null) => (n === null ? null : listQueryUrl(state.index.base, format, n, pageSize, view ?? {}));
  const next = view !== null ? own(page.next) : pageLink(ctx, page.next);
  const previous = view !== null ? own(page.previous) : pageLink(ctx, page.previous);
  if (view !== null) {
    const response = await staticFile(ctx, `/${outputPath(listDir(page.number, pageSize, view), format)}`);
    if (response !== null) return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
  }
  const base = state.index.base;
  const body: Json = { count: records.length, next, previous, results: page.items.map((r) => listItem(r, base, state.index.layout)) };
  const jsonp = otherCallback(request, body, callback);
  if (jsonp) return jsonp;
  const needsMatrices = format !== 'json' && format !== 'jsonp' && format !== 'yaml';
  const matrices = needsMatrices ? await fullMatrices(ctx, page.items) : [];
  const resource: Resource = {
    // The page for people of a list that is not pre-rendered links its
    // pages and formats by query URL, and is not one of the site's list
    // folders: 'index' keeps site.js (which moves query URLs to list files
    // on static hosts) from moving it.
    kind: format === 'api' && view === null ? 'index' : 'list',
    body,
    matrices,
    nav: format !== 'api' ? { title: '', dir: '', request: '', formats: [], breadcrumbs: [] } : view !== null ? listPageNav(view, pageSize, page, base, listChoices(ctx.state.index.filterValues)) : listNav(ctx, page),
  };
  return answer(request, 200, FORMATS[format].mediaType, FORMATS[format].render(resource, state.context));
}

/** The matrices the text formats print, with their binding sites for BED. */
async function fullMatrices(ctx: Ctx, items: Record_[]): Promise<Matrix[]> {
  const rest = await matricesOf(ctx.state, ctx.site);
  const matrices = items.map((r) => matrixOf(r, rest.rows[r.position]));
  if (ctx.format === 'bed') {
    await Promise.all(matrices.map(async (m) => {
      if (m.sites !== null) m.sites = (await ctx.site.readFile(sitesPath(m.matrixId))) ?? '';
    }));
  }
  return matrices;
}

/** Navigation of a rendered page for people: query URLs of this request, other page or format. */
function listNav(ctx: Ctx, page: Page<Record_>): Resource['nav'] {
  const path = ctx.url.pathname;
  const href = (key: string, value: string) => `${path}?${rewriteQuery(ctx.pairs, key, value)}`;
  const shown = ctx.pairs.filter(([k]) => k !== 'format' && k !== 'page').map(([k, v]) => `${k}=${v}`).join(', ');
  return {
    title: `Matrix List${shown ? ` (${shown})` : ''}`,
    dir: path,
    request: `${path}${ctx.url.search}`,
    formats: FORMAT_IDS.map((f) => ({ format: f, href: href('format', f) })),
    pages: pagesNav(page, (n) => href('page', String(n))),
    breadcrumbs: [LIST_CRUMB],
  };
}

/**
 * The filters of the pre-rendered list view this request asks a page of, as
 * the static hosts' routing reads it (any path of the list: with or without
 * its slash, a format suffix, a filter the path names; its filters, page size
 * and format, whatever their order; parameters the service ignores,
 * ignored), or null.
 */
function ownView(ctx: Ctx, pageSize: number): Filters | null {
  const { pairs, format, callback, state } = ctx;
  if (callback !== undefined && callback !== 'callback') return null;
  const filters: Filters = ctx.pathFilter ? { [ctx.pathFilter[0]]: ctx.pathFilter[1] } : {};
  for (const [key, value] of pairs) {
    // A filter beside the path's: not one of the folders the hosts map the path to.
    if ((FILTER_KEYS as readonly string[]).includes(key)) {
      if (ctx.pathFilter) return null;
      filters[key as FilterKey] = value;
    } else if (SELECTION_KEYS.includes(key) && value !== '') return null; // a selection no view has (search=, order=, name=…): rendered here
  }
  if (!isPreRenderedView(filters, state.index.filterValues)) return null;
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize) || !listViewFormats(pageSize, filters).includes(format)) return null;
  // The build's views select as the service does (plan/views.ts viewMatrices:
  // version=latest among what the other filters keep), so the file holds
  // the service's answer.
  return filters;
}
