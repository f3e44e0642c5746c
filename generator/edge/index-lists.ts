// The index lists (collections, taxa, species, releases) with the service's
// semantics: any page size, page=last, "Invalid page.", formats by format=
// or Accept. Their file where the page size is pre-rendered and the file's
// links are the service's, else rendered from every item of the list (read
// once per release from its largest pre-rendered page size).
import { FORMATS } from '../formats/registry.ts';
import type { Json, Resource } from '../formats/types.ts';
import { API_CRUMB, INDEX_TITLES } from '../plan/endpoints.ts';
import { pagesNav } from '../plan/resources.ts';
import { indexQueryUrl } from '../routes/urls.ts';
import type { ApiTarget } from './api-routes.ts';
import { pageAt, pageLink, staticFile, type Ctx } from './context.ts';
import { rewriteQuery } from './query.ts';
import { answer, error, otherCallback } from './responses.ts';

export type IndexPage = Extract<ApiTarget, { kind: 'index-page' }>;

/** An index list's title ("Collections"), or its endpoint's name. */
export const indexTitle = (endpoint: string): string => INDEX_TITLES[endpoint as keyof typeof INDEX_TITLES] ?? endpoint;

/** Every item of an index list (the largest page size's pages, in order), read once per release. */
function itemsOf(ctx: Ctx, target: IndexPage): Promise<Json[]> {
  const lists = ctx.state.indexItems;
  let items = lists.get(target.endpoint);
  if (items === undefined) {
    items = (async () => {
      const all: Json[] = [];
      for (let n = 1; ; n++) {
        const text = await ctx.site.readFile(target.itemsFile(n));
        if (text === null) throw new Error(`${target.itemsFile(n)} is missing: the site was built without it`);
        const page = JSON.parse(text) as { count: number; results: Json[] };
        all.push(...page.results);
        if (all.length >= page.count || page.results.length === 0) return all;
      }
    })();
    items.catch(() => lists.delete(target.endpoint));
    lists.set(target.endpoint, items);
  }
  return items;
}

/** A page of an index list: its file where the page size is pre-rendered and the file's links are the service's, else rendered with the same renderers. */
export async function indexPage(ctx: Ctx, target: IndexPage): Promise<Response> {
  const { request, state, format, callback } = ctx;
  const items = await itemsOf(ctx, target);
  const page = pageAt(items, target.pageSize, target.page);
  if (page === null) return error(request, 404, 'Invalid page.', callback);
  const next = pageLink(ctx, page.next);
  const previous = pageLink(ctx, page.previous);
  const own = (n: number | null) => (n === null ? null : indexQueryUrl(state.index.base, target.endpoint, format, n, target.pageSize));
  const path = target.file(page.number);
  if (path !== null && own(page.next) === next && own(page.previous) === previous && (callback === undefined || callback === 'callback')) {
    const response = await staticFile(ctx, path);
    if (response !== null) return answer(request, 200, FORMATS[format].mediaType, await response.arrayBuffer());
  }
  const body: Json = { count: items.length, next, previous, results: page.items };
  const jsonp = otherCallback(request, body, callback);
  if (jsonp) return jsonp;
  const title = indexTitle(target.endpoint);
  const dir = ctx.url.pathname;
  const href = (key: string, value: string) => `${dir}?${rewriteQuery(ctx.pairs, key, value)}`;
  const resource: Resource = {
    kind: 'index',
    body,
    matrices: [],
    nav: {
      title,
      dir,
      request: `${dir}${ctx.url.search}`,
      formats: target.formats.map((f) => ({ format: f, href: href('format', f) })),
      pages: pagesNav(page, (n) => href('page', String(n))),
      breadcrumbs: [API_CRUMB, { label: title, href: dir }],
    },
  };
  return answer(request, 200, FORMATS[format].mediaType, FORMATS[format].render(resource, state.context));
}
