// The site behind the edge handler, as each host reaches it (the adapters in
// hosts/ and the Node server build one per request or per folder), and the
// site of a release other than the default one, which lies in a folder of
// the host's (/releases/<year>/).
import type { EdgeSite as HostSite } from './hosts/types.ts';

export interface EdgeSite extends HostSite {
  /** Where this site lies in the host's (a release other than the default one: "/releases/2026"); none: the root. */
  prefix?: string;
}

/** The site of a release under a path of the host's ("/releases/2026"): its files and indexes are the host's with the path in front. */
export function under(host: EdgeSite, prefix: string): EdgeSite {
  return {
    prefix,
    readFile: (path) => host.readFile(`${prefix}${path}`),
    next(request) {
      const url = new URL(request.url);
      url.pathname = `${prefix}${url.pathname}`;
      return host.next(new Request(url, request));
    },
  };
}
