// `netlify dev` (netlify-cli 26.2.0, dist/utils/proxy.js) answers a 404 (or
// 403) of an edge function as it answers a missing static file: it sends the
// same request again at the path's "pretty URL" variants (`/p.html`, `/p.htm`,
// `/p/index.html`, `/p/index.htm`; for `/p/`: `/p.html`, `/p.htm`,
// `/p/index.html`, `/p/index.htm`), through the edge function again, and
// sends the client the last answer. So the handler's `{"detail":"Invalid
// page."}` for /api/v1/matrix/?page=999 turned into the list's index.html.
// Production Netlify sends the function's 404. Under `netlify dev` only (its
// requests carry x-nf-deploy-context: dev), the adapter answers such a retry,
// arriving within seconds, with the 404 it just gave.

/** The deploy context header the Netlify runtime sets; "dev" under `netlify dev`. */
export const DEPLOY_CONTEXT_HEADER = 'x-nf-deploy-context';
const KEEP_MS = 10_000;
const MAX_KEPT = 256;

interface Kept {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  until: number;
}

/** The URLs (path and query) netlify dev retries after a 404 of `pathname` + `search`. */
export function retryUrls(pathname: string, search: string): string[] {
  const base = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const folder = pathname.endsWith('/') ? pathname : `${pathname}/`;
  const paths = base === '' ? [] : [`${base}.html`, `${base}.htm`];
  paths.push(`${folder}index.html`, `${folder}index.htm`);
  return paths.map((p) => p + search);
}

export class DevRetries {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether this request comes from `netlify dev`. */
  static applies(request: Request): boolean {
    return request.headers.get(DEPLOY_CONTEXT_HEADER) === 'dev';
  }

  /** The 404 to give again if this request is netlify dev's retry of one, else null. */
  replay(request: Request): Response | null {
    const url = new URL(request.url);
    const key = url.pathname + url.search;
    const kept = this.kept.get(key);
    if (kept === undefined) return null;
    if (kept.until < this.now()) {
      this.kept.delete(key);
      return null;
    }
    return new Response(request.method === 'HEAD' ? null : kept.body.slice(0), { status: kept.status, headers: kept.headers });
  }

  /** Keeps a 404/403 answer for the retries of its request; returns an equal response to send. */
  async remember(request: Request, response: Response): Promise<Response> {
    if (response.status !== 404 && response.status !== 403) return response;
    const url = new URL(request.url);
    const body = await response.arrayBuffer();
    const kept: Kept = { status: response.status, headers: [...response.headers], body, until: this.now() + KEEP_MS };
    for (const key of retryUrls(url.pathname, url.search)) {
      this.kept.delete(key);
      this.kept.set(key, kept);
    }
    while (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return new Response(request.method === 'HEAD' ? null : body.slice(0), { status: kept.status, headers: kept.headers });
  }
}
