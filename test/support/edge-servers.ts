// The two edge engines, for real and offline, over a given site folder:
// Netlify Edge Functions under `netlify dev` (Deno with Netlify's bootstrap)
// and a Cloudflare Worker with static assets under `wrangler dev` (workerd).
// How each runs offline: generator/edge/hosts/local-engines.ts.
//
// Each engine runs in its own process group, from a fresh temporary project
// folder holding a copy of the repository's host configuration (netlify.toml
// and its import map, wrangler.jsonc), so runs in parallel do not share the
// engines' state folders (.netlify/, .wrangler/) and nothing is written into
// the repository. The handler is the product's (netlify/edge-functions/,
// cloudflare/worker.ts) unless `handler` names another module exporting
// handle() with the same signature (the tests' double).
import { execFileSync } from 'node:child_process';
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { netlifyDevArgs, netlifyDevEnv, wranglerDevArgs, wranglerDevEnv } from '../../generator/edge/hosts/local-engines.ts';
import { netlifyProject, wranglerProject } from '../../generator/edge/hosts/projects.ts';
import { PROJECT_ROOT } from './paths.ts';
import { answers, onOtherPorts, startProcess } from './process.ts';
import { turn } from './run.ts';
import { sharedServer } from './shared-servers.ts';

export type Engine = 'netlify' | 'cloudflare';
export const ENGINES: readonly Engine[] = ['netlify', 'cloudflare'];

/** This helper's ports (the common brief gives each its range). */
const PORTS = { first: 18300, last: 18399 };
// wrangler dev over a 44,000-file view took 91-97 s to answer at a load average of 20 (2 cores, five helpers' builds): 120 s failed once.
const STARTUP_MS = 240_000;
const BIN = path.join(PROJECT_ROOT, 'node_modules/.bin');

export interface EdgeServer {
  engine: Engine;
  /** "http://127.0.0.1:<port>", no trailing slash. */
  origin: string;
  /** From spawning the engine to its first answer through the handler, in ms. */
  startupMs: number;
  /** Everything the engine printed so far (stdout and stderr). */
  output(): string;
  /** Resident memory of every process of the engine's group, in KiB, by command. */
  memory(): { command: string; rssKiB: number }[];
  stop(): Promise<void>;
  /** Resolves when the engine's CLI exits (a shared one is watched and started again). */
  exited?: Promise<void>;
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

let nextPort = PORTS.first + Math.floor(Math.random() * (PORTS.last - PORTS.first + 1));
/** A port of this helper's range nobody listens on now (tried round the range from a random start). */
export async function freePortInRange(): Promise<number> {
  for (let tried = 0; tried <= PORTS.last - PORTS.first; tried++) {
    const port = nextPort;
    nextPort = port >= PORTS.last ? PORTS.first : port + 1;
    if (await listens(port)) return port;
  }
  throw new Error(`no free port in ${PORTS.first}-${PORTS.last}`);
}

/** RSS of each process in the group (ps), the group's own processes only. */
function groupMemory(pgid: number | undefined): { command: string; rssKiB: number }[] {
  if (pgid === undefined) return [];
  let text = '';
  try {
    text = execFileSync('ps', ['-o', 'rss=,comm=', '-g', String(pgid)], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const [rss, ...command] = line.split(/\s+/);
    return { command: command.join(' '), rssKiB: Number(rss) };
  });
}

export interface StartOptions {
  /** A module exporting handle(request, site) to run instead of the product's handler. */
  handler?: string;
  /** A URL path whose answer comes through the handler: the engine is ready when it answers 200. */
  readyPath?: string;
  /** Also append the engine's output to this file (test/support/process.ts). */
  log?: string;
  /** Listen on this port (a shared engine started again where it was). */
  port?: number;
}

/**
 * The engine over siteDir with the product's handler, or options.handler's.
 * netlify over the global setup's site with the product's handler is the
 * one the global setup started for every suite (test/support/shared-servers.ts).
 */
export async function startEdgeServer(engine: Engine, siteDir: string, options: StartOptions = {}): Promise<EdgeServer> {
  const shared = engine === 'netlify' && options.handler === undefined && options.log === undefined ? await sharedServer('netlify-edge', siteDir) : undefined;
  if (shared) return { engine, origin: shared.origin, startupMs: 0, output: shared.output, memory: () => [], stop: shared.stop };
  // A port given (a shared engine started again where it was) is kept; else again on other ports on a clash.
  return options.port !== undefined ? startEngine(engine, siteDir, options) : onOtherPorts(() => startEngine(engine, siteDir, options));
}

async function startEngine(engine: Engine, siteDir: string, options: StartOptions): Promise<EdgeServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `jaspar-edge-${engine}-`));
  const port = options.port ?? (await freePortInRange());
  let command: string;
  let args: string[];
  let env: NodeJS.ProcessEnv;
  if (engine === 'netlify') {
    netlifyProject(dir, options.handler);
    command = path.join(BIN, 'netlify');
    args = netlifyDevArgs(siteDir, port, await freePortInRange());
    env = netlifyDevEnv();
  } else {
    const entry = wranglerProject(dir, options.handler);
    command = path.join(BIN, 'wrangler');
    args = wranglerDevArgs(entry, path.join(dir, 'wrangler.jsonc'), siteDir, port, await freePortInRange());
    env = wranglerDevEnv();
  }
  const origin = `http://127.0.0.1:${port}`;
  const readyPath = options.readyPath ?? '/api/v1/';
  const started = await startProcess({
    name: engine,
    command,
    args,
    cwd: dir,
    env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    // Ready when the handler answers, not when the CLI listens.
    ready: () => answers(`${origin}${readyPath}`, { timeoutMs: 30_000, ok: (status) => status === 200 }),
    startupMs: STARTUP_MS,
    pollMs: 200,
    // What each CLI prints when it will never serve (and keeps running).
    fatal: /\[ERROR\]|Failed to load edge functions|Could not load configuration for edge function/,
    // Stragglers of the group (workerd, deno) once the CLI is gone.
    stragglersMs: 200,
    cleanup: () => rm(dir, { recursive: true, force: true }),
    log: options.log,
  });
  return { engine, origin, startupMs: started.startupMs, output: started.output, memory: () => groupMemory(started.pid), stop: started.stop, exited: started.exited };
}

/** Cloudflare's limits on a Worker's static assets (developers.cloudflare.com/workers/platform/limits). */
export const CLOUDFLARE_ASSETS = { maxFiles: 100_000, maxFilesFree: 20_000, maxFileBytes: 25 * 1024 * 1024 };

/**
 * A view of siteDir holding only the files `include` keeps (relative paths
 * with '/'), as hard links (a copy where linking fails) in a new temporary
 * folder: what a host that refuses some of the site is given. Returns the
 * folder and its file count; the caller removes it.
 */
export async function siteView(siteDir: string, include: (relative: string, bytes: number) => boolean): Promise<{ dir: string; files: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-edge-view-'));
  let files = 0;
  let seen = 0;
  const walk = async (relative: string) => {
    for (const entry of readdirSync(path.join(siteDir, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await walk(child);
        continue;
      }
      // A turn of the event loop now and then: a test worker must not block for long (test/support/event-loop.ts).
      if (++seen % 500 === 0) await turn();
      const source = path.join(siteDir, child);
      if (!include(child, statSync(source).size)) continue;
      const target = path.join(dir, child);
      mkdirSync(path.dirname(target), { recursive: true });
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
      files++;
    }
  };
  await walk('');
  return { dir, files };
}

/** A matrix or base id folder, of the default release or of another under releases/<year>/. */
const MATRIX_FOLDER = /^(?:releases\/[0-9]{4}\/)?api\/v1\/matrix\/([A-Z]{2}[0-9]{4}(?:\.[0-9]+)?)\//;
/** Another release's filtered lists and page sizes (about 50,000 files): the handler renders them when absent,
 *  and wrangler dev watches every asset (a view with them ran out of the machine's 192,536 inotify watches). */
const OTHER_RELEASE_VIEWS = /^releases\/[0-9]{4}\/api\/v1\/matrix\/(?:collection|tax_group|tax_id|version|page_size)\//;

/**
 * The built site as Cloudflare takes it: without files over 25 MiB (the
 * mirror archive) and with the matrix folders of `keepIds` only (the full
 * build's 144,592 files are over the 100,000 a Worker's assets may have; a
 * compact build is what a real deployment needs). Throws if it is still over.
 */
export async function cloudflareSiteView(siteDir: string, keepIds: ReadonlySet<string>): Promise<{ dir: string; files: number }> {
  const made = await siteView(siteDir, (relative, bytes) => {
    if (bytes > CLOUDFLARE_ASSETS.maxFileBytes) return false;
    if (OTHER_RELEASE_VIEWS.test(relative)) return false;
    const folder = MATRIX_FOLDER.exec(relative);
    return folder === null || keepIds.has(folder[1]);
  });
  if (made.files > CLOUDFLARE_ASSETS.maxFiles) {
    await rm(made.dir, { recursive: true, force: true });
    throw new Error(`${made.files} files: over Cloudflare's ${CLOUDFLARE_ASSETS.maxFiles} even without the other matrices' folders`);
  }
  return made;
}
