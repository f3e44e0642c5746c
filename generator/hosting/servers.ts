// The configuration files of the servers that can route query URLs
// themselves (nginx, Caddy, Apache httpd), written by the build into the
// site, so that they travel with it and with the mirror archive. Under
// _hosting/: a name no API or page URL uses; scripts/serve.ts starts each
// server with them.
import { caddyfile } from './caddy.ts';
import { apacheConf } from './apache.ts';
import { nginxHttpConf, nginxServerConf } from './nginx.ts';
import { serverRouting, type ServerRoutingInput } from './routing.ts';
import { apacheNodeConf, caddyfileWithNode, nginxNodeConf } from './node-proxy.ts';

/** Where each server's configuration lies in the site (relative, no leading slash). */
export const HOSTING_FILES = {
  nginxHttp: '_hosting/nginx/http.conf',
  nginxServer: '_hosting/nginx/server.conf',
  caddy: '_hosting/Caddyfile',
  apache: '_hosting/apache.conf',
  // The Node server behind each (node-proxy.ts).
  nginxNode: '_hosting/nginx/node.conf',
  caddyNode: '_hosting/Caddyfile.node',
  apacheNode: '_hosting/apache-node.conf',
} as const;

/** [output path, content] of every server configuration. */
export function serverConfigs(input: ServerRoutingInput): [string, string][] {
  const routing = serverRouting(input);
  return [
    [HOSTING_FILES.nginxHttp, nginxHttpConf(routing)],
    [HOSTING_FILES.nginxServer, nginxServerConf(routing)],
    [HOSTING_FILES.caddy, caddyfile(routing)],
    [HOSTING_FILES.apache, apacheConf(routing)],
    [HOSTING_FILES.nginxNode, nginxNodeConf(routing)],
    [HOSTING_FILES.caddyNode, caddyfileWithNode(caddyfile(routing))],
    [HOSTING_FILES.apacheNode, apacheNodeConf(routing)],
  ];
}
