// Cloudflare Workers adapter: the handler as a Worker in front of the built
// site, deployed as the Worker's static assets with run_worker_first
// (wrangler.jsonc), so every request reaches the handler first.
//
// - next(): env.ASSETS.fetch(request), the assets service, which applies the
//   html_handling and not_found_handling of wrangler.jsonc (a missing file is
//   the site's /404.html with status 404, as on Netlify).
// - readFile(): the same assets service for the file's URL; nothing else is
//   read (a Worker has no file system).
import { fileText, type EdgeSite, type Handle } from './types.ts';

/** The assets binding wrangler.jsonc declares (assets.binding = "ASSETS"). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

export interface WorkerEnv {
  ASSETS: AssetsBinding;
}

export interface WorkerModule {
  fetch(request: Request, env: WorkerEnv): Promise<Response>;
}

export function cloudflareWorker(handle: Handle): WorkerModule {
  return {
    fetch(request, env) {
      const site: EdgeSite = {
        next: (target) => env.ASSETS.fetch(target),
        readFile: async (path) => fileText(await env.ASSETS.fetch(new Request(new URL(path, request.url))), path),
      };
      return handle(request, site);
    },
  };
}
