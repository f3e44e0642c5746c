// What the edge handler knows of a request once it is routed (Ctx), and what
// its answers share: a pre-rendered file of the site, a matrix's or base id's
// file in the negotiated format, a page of a list and its links.
import { FORMATS, type FormatId } from '../formats/registry.ts';
import type { Page } from '../routes/paginate.ts';
import { outputPath, type FilterKey } from '../routes/urls.ts';
import { rewriteQuery, type QueryPairs } from './query.ts';
import { NOT_FOUND, answer, error } from './responses.ts';
import type { EdgeSite } from './site.ts';
import type { Loaded } from './state.ts';

export interface Ctx {
  request: Request;
  url: URL;
  /** The site's files, a compact build's missing ones rendered (compact.ts). */
  site: EdgeSite;
  state: Loaded;
  pairs: QueryPairs;
  get: (key: string) => string | undefined;
  format: FormatId;
  callback?: string;
  pathFilter?: [FilterKey, string];
}

/** A pre-rendered file of the site (one format of a resource folder), through the static files. */
export async function staticFile(ctx: Ctx, path: string): Promise<Response | null> {
  const response = await ctx.site.next(new Request(new URL(path, ctx.url), { method: 'GET', headers: ctx.request.headers }));
  if (!response.ok) {
    await response.body?.cancel();
    return null;
  }
  return response;
}

/** A matrix or a base id's versions: its file in the negotiated format. */
export async function file(ctx: Ctx, dir: string): Promise<Response> {
  const { request, format, callback } = ctx;
  if (callback !== undefined && callback !== 'callback') {
    // The file holds callback(…); another name wraps the JSON file.
    const json = await staticFile(ctx, `/${outputPath(dir, 'json')}`);
    if (json === null) return error(request, 404, NOT_FOUND, callback);
    return answer(request, 200, FORMATS.jsonp.mediaType, `${callback}(${await json.text()});`);
  }
  const response = await staticFile(ctx, `/${outputPath(dir, format)}`);
  if (response === null) return error(request, 404, NOT_FOUND, callback);
  return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
}

/** Page `asked` of items at pageSize, as routes/paginate.ts pages them ('last': the last one); null for none
 *  (not a number, below 1 or past the end: DRF's "Invalid page."). */
export function pageAt<T>(items: readonly T[], pageSize: number, asked: number | 'last' | null): Page<T> | null {
  const last = Math.max(1, Math.ceil(items.length / pageSize));
  const number = asked === 'last' ? last : asked;
  if (number === null || number < 1 || number > last) return null;
  return {
    number,
    items: items.slice((number - 1) * pageSize, number * pageSize),
    previous: number > 1 ? number - 1 : null,
    next: number < last ? number + 1 : null,
    last,
  };
}

/** The link to another page: the request's URL (the build's host) with page replaced. DRF drops
 *  page from the link to page 1; the pre-rendered files and the list contract (../shared/spec/)
 *  keep page=1, and the handler writes what the files have, so that both give one body. */
export function pageLink(ctx: Ctx, page: number | null): string | null {
  if (page === null) return null;
  const query = rewriteQuery(ctx.pairs, 'page', String(page));
  return `${ctx.state.index.base}${ctx.url.pathname}${query ? `?${query}` : ''}`;
}
