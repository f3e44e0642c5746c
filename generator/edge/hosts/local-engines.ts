// How to run the two edge engines on this machine, offline, from npm
// packages only (Node side; used by the test harness and the measurement
// script, and by whoever runs `netlify dev` or `wrangler dev` by hand).
//
// Netlify (`netlify dev`, netlify-cli 26.2.0): its edge runtime is Deno plus
// Netlify's bootstrap module. Read from netlify-cli and @netlify/edge-bundler:
// - Deno: the bundler runs `deno` from PATH when its version satisfies
//   ^2.4.2, else downloads one. The npm package deno ships the Linux binary
//   in @deno/linux-x64-glibc: that folder goes first on PATH.
// - The bootstrap: netlify-cli imports it from the URL in
//   NETLIFY_EDGE_BOOTSTRAP, else from https://v<version>--edge.netlify.com
//   (what fails offline). @netlify/edge-functions-bootstrap on npm holds only
//   its types; @netlify/edge-functions-dev (a dependency of netlify-cli)
//   ships the whole bootstrap built as one module (dist/deno/bootstrap.mjs,
//   exporting the same boot()): NETLIFY_EDGE_BOOTSTRAP points at it.
// - The function config reader (@netlify/edge-bundler/deno/config.ts)
//   imports https://edge.netlify.com/bootstrap/globals/types.ts; the import
//   map in netlify.toml maps it to the npm copy of those types.
// - Types update check: the bundler always fetches edge.netlify.com/version.txt
//   and ignores a failure; offline-fetch.mjs, preloaded, fails it before any
//   DNS query. DENO_NO_UPDATE_CHECK=1 (in the environment and in a .env
//   file, NETLIFY_DEV_DOTENV) stops Deno's look-up of dl.deno.land.
//   Checked with strace: only loopback connections remain.
//
// Cloudflare (`wrangler dev`, wrangler 4.86.0, workerd from npm):
// CLOUDFLARE_CF_FETCH_ENABLED=false keeps miniflare from fetching the
// request.cf sample (workers.cloudflare.com/cf.json; it uses a built-in one),
// WRANGLER_SEND_METRICS=false stops telemetry, WRANGLER_HIDE_BANNER=true
// skips the banner and its npm version check (checked with strace: only
// loopback connections remain; without these, a DNS query for
// workers.cloudflare.com and the npm registry's wrangler version).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MODULES = path.join(PROJECT_ROOT, 'node_modules');

/** The folder holding the deno binary of the npm package (Linux x64). */
export const DENO_BIN_DIR = path.join(MODULES, '@deno/linux-x64-glibc');
/** Netlify's edge bootstrap as shipped on npm. */
export const NETLIFY_BOOTSTRAP = path.join(MODULES, '@netlify/edge-functions-dev/dist/deno/bootstrap.mjs');
/** Makes Node's fetch refuse hosts off this machine (see the file). */
export const OFFLINE_FETCH = path.join(PROJECT_ROOT, 'generator/edge/hosts/offline-fetch.mjs');

export function netlifyDevEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    PATH: [DENO_BIN_DIR, base.PATH ?? ''].join(path.delimiter),
    NETLIFY_EDGE_BOOTSTRAP: pathToFileURL(NETLIFY_BOOTSTRAP).href,
    NODE_OPTIONS: [base.NODE_OPTIONS ?? '', `--import=${pathToFileURL(OFFLINE_FETCH).href}`].join(' ').trim(),
    // Deno's own check for a newer release (a look-up of dl.deno.land), for the
    // deno commands netlify dev runs with this environment (the edge runtime
    // itself gets NETLIFY_DEV_DOTENV).
    DENO_NO_UPDATE_CHECK: '1',
    NETLIFY_TELEMETRY_DISABLED: '1',
    BROWSER: 'none',
  };
}

/**
 * A .env file for the folder `netlify dev` runs in: of the environment, its
 * edge runtime (deno run) gets only Netlify's own variables and those of .env
 * files, so this is how Deno's update check is turned off there.
 */
export const NETLIFY_DEV_DOTENV = 'DENO_NO_UPDATE_CHECK=1\n';

/**
 * `netlify dev` serving siteDir on 127.0.0.1:port with the edge functions of
 * the project folder it runs in. `staticPort`: its internal static server's
 * port; without it netlify dev takes 3999 if free, and two started at the
 * same moment both take it (one fails: EADDRINUSE).
 */
export function netlifyDevArgs(siteDir: string, port: number, staticPort?: number): string[] {
  return ['dev', '--offline', '--dir', siteDir, '--port', String(port), ...staticServerPort(staticPort)];
}

/** netlify dev's --staticServerPort flag, when a port is given. */
export function staticServerPort(port: number | undefined): string[] {
  return port === undefined ? [] : ['--staticServerPort', String(port)];
}

export function wranglerDevEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
  };
}

/** `wrangler dev` of entry in front of siteDir (wrangler.jsonc's assets, folder overridden) on host:port; without an inspector port wrangler takes a free one. */
export function wranglerDevArgs(entry: string, configPath: string, siteDir: string, port: number, inspectorPort?: number, host = '127.0.0.1'): string[] {
  return [
    'dev', entry, '--config', configPath, '--assets', siteDir,
    '--ip', host, '--port', String(port), '--inspector-ip', '127.0.0.1', ...(inspectorPort === undefined ? [] : ['--inspector-port', String(inspectorPort)]),
    '--show-interactive-dev-session=false', '--log-level', 'warn',
  ];
}
