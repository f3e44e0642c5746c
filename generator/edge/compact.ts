// A compact build's missing files (render-missing.ts): every file the handler
// asks of the site, the request's own too, goes through withMissingRendered,
// which answers a 404 of the host with the full build's file where the index
// says the build is compact.
import { FORMATS } from '../formats/registry.ts';
import { MAX_PATH_LENGTH } from './match.ts';
import { renderFile, renderable } from './render-missing.ts';
import { answer } from './responses.ts';
import type { EdgeSite } from './site.ts';
import { matricesOf, type Loaded, type Releases } from './state.ts';

/** The site's files, and where the host has none and the index says the build is compact, the full build's file rendered. */
export function withMissingRendered(site: EdgeSite, releases: Releases): EdgeSite {
  return {
    prefix: site.prefix,
    readFile: (path) => site.readFile(path),
    async next(request) {
      const response = await site.next(request);
      if (response.status !== 404 || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
      const rendered = await renderMissing(request, site, releases);
      if (rendered === null) return response;
      await response.body?.cancel();
      return rendered;
    },
  };
}

async function renderMissing(request: Request, site: EdgeSite, releases: Releases): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  if (pathname.length > MAX_PATH_LENGTH) return null;
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null; // a path that is not UTF-8: the host's 404
  }
  // A missing page or asset is the host's 404 at once: it never waits for the indexes.
  if (!renderable(path)) return null;
  let state: Loaded;
  try {
    state = await releases.load(site);
  } catch {
    return null; // no indexes (the handler says why when it needs them): the host's 404
  }
  if (!state.index.compact) return null;
  const file = await renderFile(path, {
    index: state.index,
    records: state.records,
    context: state.context,
    matrices: () => matricesOf(state, site),
    readFile: (p) => site.readFile(p),
    memo: state.compact,
  });
  if (file === null) return null;
  return answer(request, 200, file.format === undefined ? 'image/svg+xml' : FORMATS[file.format].mediaType, file.body);
}
