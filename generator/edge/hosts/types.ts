// What the host adapters need of the edge handler (generator/edge/handler.ts):
// the same shapes, declared here so that an adapter depends on the contract,
// not on the handler module (the entry files join the two).

/** The site behind the handler, as each host reaches it. */
export interface EdgeSite {
  /** The static file answer for this request (or for another path of the same site). */
  next(request: Request): Promise<Response>;
  /** A file of the built site by URL path ('/api/v1/…'), null if absent. */
  readFile(path: string): Promise<string | null>;
}

/** The handler: a Fetch API request in front of the site, a response out. */
export type Handle = (request: Request, site: EdgeSite) => Promise<Response>;

/**
 * A site file read through the host's own static file service. Both hosts
 * answer a missing file with 404 and the site's 404 page; anything else that
 * is not a 200 (a redirect, a server error) is a fault worth seeing, not an
 * absent file.
 */
export async function fileText(response: Response, path: string): Promise<string | null> {
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`reading ${path} from the site: status ${response.status}`);
  }
  return response.text();
}
