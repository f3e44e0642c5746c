// Netlify Edge Functions adapter: the handler as an edge function
// (netlify/edge-functions/jaspar.ts). Web APIs only; it runs on Netlify's
// Deno-based edge runtime, and under `netlify dev` on the same runtime
// (Deno + Netlify's bootstrap, see generator/edge/hosts/local-engines.ts).
//
// - next(): context.next() continues to the redirects, headers and static
//   files of the deploy. Given another Request than the incoming one it is
//   Netlify's same-site rewrite (context.next(request)).
// - readFile(): an edge function cannot read the deploy's files (Netlify's
//   runtime replaces Deno.readFile & co. by a function that throws), so the
//   file is fetched from the site itself. That request reaches this function
//   again (it is declared on /api/*); the READ_HEADER marks it so that it goes
//   straight to the static file. Under `netlify dev` the runtime sends such
//   fetches of the site's own origin to the local server.
// - Under `netlify dev` only, its retries of a 404 at other paths get that
//   404 again (netlify-dev-retries.ts).
import { DevRetries } from './netlify-dev-retries.ts';
import { fileText, type EdgeSite, type Handle } from './types.ts';

/** The part of Netlify's edge Context the adapter uses. */
export interface NetlifyContext {
  next(request?: Request): Promise<Response>;
}

export type NetlifyEdgeFunction = (request: Request, context: NetlifyContext) => Promise<Response>;

/** Marks the function's own reads of site files. */
export const READ_HEADER = 'x-jaspar-edge-read';

export function netlifyEdgeFunction(handle: Handle): NetlifyEdgeFunction {
  const retries = new DevRetries();
  return async (request, context) => {
    if (request.headers.has(READ_HEADER)) return context.next();
    const dev = DevRetries.applies(request);
    if (dev) {
      const again = retries.replay(request);
      if (again !== null) return again;
    }
    const site: EdgeSite = {
      next: (target) => (target === request ? context.next() : context.next(target)),
      readFile: async (path) => {
        const url = new URL(path, request.url);
        const response = await fetch(url, { headers: { [READ_HEADER]: '1' } });
        return fileText(response, path);
      },
    };
    const response = await handle(request, site);
    return dev ? retries.remember(request, response) : response;
  };
}
