// Real servers for the end-to-end suites: Netlify's own routing engine
// (`netlify dev`, offline) and a plain static server (http-server). Each runs
// in its own process group on a free local port and is stopped as a whole.
// Every request the suites make goes to 127.0.0.1 only.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverCommand, type ServerName } from '../../scripts/serve.ts';

export { freePort };
import { PROJECT_ROOT } from './paths.ts';
import { answers, startProcess } from './process.ts';
import { sharedServer } from './shared-servers.ts';

export interface RunningServer {
  /** "http://127.0.0.1:<port>", no trailing slash. */
  origin: string;
  /** The server's process (the measurements read its memory). */
  pid?: number;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Kills the whole process group and waits for the server to exit. */
  stop(): Promise<void>;
  /** Resolves when the server's command exits (a shared one is watched and started again). */
  exited?: Promise<void>;
}

const BIN = path.join(PROJECT_ROOT, 'node_modules/.bin');
const STARTUP_MS = 90_000;

/** With `own`, the caller's working folder and environment (scripts/serve.ts made them; cleanup removes them). */
async function startServer(name: string, command: string, args: string[], port: number, own?: { cwd: string; env: NodeJS.ProcessEnv; cleanup(): void; sidecar?: { command: string; args: string[] } }, log?: string): Promise<RunningServer> {
  // A fresh empty folder, so the repository's own files (netlify.toml, package.json, .env…) cannot influence the server.
  const cwd = own?.cwd ?? mkdtempSync(path.join(os.tmpdir(), `jaspar-${name}-cwd-`));
  const origin = `http://127.0.0.1:${port}`;
  // The Node server behind the server (--with-node) answers too, or the first requests it should take get the
  // server's 502 (seen on a loaded machine: it came up after nginx).
  const sidecarPort = own?.sidecar ? own.sidecar.args[own.sidecar.args.indexOf('--port') + 1] : undefined;
  const started = await startProcess({
    name,
    command,
    args,
    cwd,
    env: own?.env ?? { ...process.env, BROWSER: 'none', NETLIFY_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    sidecar: own?.sidecar,
    ready: async () => (await answers(`${origin}/`)) && (sidecarPort === undefined || (await answers(`http://127.0.0.1:${sidecarPort}/`))),
    startupMs: STARTUP_MS,
    cleanup: () => (own ? own.cleanup() : rmSync(cwd, { recursive: true, force: true })),
    log,
  });
  return { origin, pid: started.pid, output: started.output, stop: started.stop, exited: started.exited };
}

/**
 * `netlify dev` (offline, Netlify's redirect and header engine, no edge
 * function) serving siteDir, started as `npm run serve -- --server netlify
 * --edge off` starts it (scripts/serve.ts has its arguments). The global
 * setup's site has one started once for every suite (test/support/shared-servers.ts):
 * asked for that site, this is it, and its stop() leaves it running.
 */
export async function startNetlifyDev(siteDir: string): Promise<RunningServer> {
  return startSiteServer('netlify', siteDir, { edge: false });
}

/** http-server 14.1.1 serving siteDir (`-s`: silent); the global setup's one for its site (test/support/shared-servers.ts). */
export async function startHttpServer(siteDir: string, options: { log?: string; port?: number } = {}): Promise<RunningServer> {
  const shared = options.log === undefined ? await sharedServer('http-server', siteDir) : undefined;
  if (shared) return shared;
  const port = options.port ?? (await freePort());
  return startServer('http-server', path.join(BIN, 'http-server'), [siteDir, '-p', String(port), '-s'], port, undefined, options.log);
}

/**
 * A server started the way `npm run serve -- --server <name>` starts it
 * (scripts/serve.ts): the site's own generated config, a temporary folder
 * for the rest, 127.0.0.1 on a free port.
 */
export async function startSiteServer(server: ServerName, siteDir: string, options: { withNode?: boolean; edge?: boolean; log?: string; shared?: false; port?: number } = {}): Promise<RunningServer> {
  // netlify dev without the edge function over the global setup's site: the one started for every suite (shared: false, a new one).
  const shared = server === 'netlify' && !options.edge && options.log === undefined && options.shared !== false ? await sharedServer('netlify', siteDir) : undefined;
  if (shared) return shared;
  const port = options.port ?? (await freePort());
  // netlify dev's internal static server on a port of its own: two suites starting netlify dev at once both took 3999.
  const command = serverCommand(server, { dir: siteDir, port, host: '127.0.0.1', ...(server === 'netlify' ? { staticPort: await freePort(), edge: options.edge } : {}), ...(options.withNode ? { node: await freePort() } : {}) });
  return startServer(server, command.command, command.args, port, { cwd: command.tmp, env: command.env, cleanup: command.cleanup, sidecar: command.sidecar }, options.log);
}

/** Runs fn over items with at most `concurrency` calls in flight; results in input order. */
export async function fetchAll<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const index = next++;
      if (index >= items.length) return;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}

export interface Fetched {
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  /** Media type without parameters, lower case ("" when missing). */
  type: string;
}

/** GET with one retry on a network error (never on an HTTP status). */
export async function get(url: string, redirect: RequestRedirect = 'manual'): Promise<Fetched> {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') throw new Error(`refusing a request off this machine: ${url}`);
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { redirect, signal: AbortSignal.timeout(60_000) });
      const body = Buffer.from(await response.arrayBuffer());
      const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      return { url, status: response.status, headers: response.headers, body, type };
    } catch (error) {
      // A loaded 2-core machine sometimes drops a loopback connection
      // ("fetch failed", ECONNRESET): try again after a pause, then report
      // the cause.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (attempt >= 3) throw new Error(`GET ${url} failed: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** The file answering format f inside a resource folder (see generator/routes/urls.ts). */
export const FORMAT_FILES = {
  api: 'index.html',
  json: 'index.json',
  jsonp: 'index.js',
  jaspar: 'index.jaspar.txt',
  meme: 'index.meme.txt',
  transfac: 'index.transfac.txt',
  pfm: 'index.pfm.txt',
  yaml: 'index.yaml',
  bed: 'index.bed.txt',
} as const;
export type Format = keyof typeof FORMAT_FILES;
export const FORMATS = Object.keys(FORMAT_FILES) as Format[];

/** Formats an assertion message from a list of problems: the count and the first few. */
export function problems(list: string[], shown = 20): string {
  return list.length === 0 ? 'none' : `${list.length} problem(s), first ${Math.min(shown, list.length)}:\n  ${list.slice(0, shown).join('\n  ')}`;
}
