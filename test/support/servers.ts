// Real servers for the end-to-end suites: Netlify's own routing engine
// (`netlify dev`, offline) and a plain static server (http-server). Each runs
// in its own process group on a free local port and is stopped as a whole.
// Every request the suites make goes to 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverCommand, type ServerName } from '../../scripts/serve.ts';

export { freePort };
import { PROJECT_ROOT } from './paths.ts';

export interface RunningServer {
  /** "http://127.0.0.1:<port>", no trailing slash. */
  origin: string;
  /** The server's process (the measurements read its memory). */
  pid?: number;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** Kills the whole process group and waits for the server to exit. */
  stop(): Promise<void>;
}

const BIN = path.join(PROJECT_ROOT, 'node_modules/.bin');
const STARTUP_MS = 90_000;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the group: the CLI and everything it started
  } catch {
    // already gone
  }
}

/** With `own`, the caller's working folder and environment (scripts/serve.ts made them; cleanup removes them). */
async function startServer(name: string, command: string, args: string[], port: number, own?: { cwd: string; env: NodeJS.ProcessEnv; cleanup(): void; sidecar?: { command: string; args: string[] } }): Promise<RunningServer> {
  const cwd = own?.cwd ?? mkdtempSync(path.join(os.tmpdir(), `jaspar-${name}-cwd-`));
  // The Node server behind the server (--with-node), in a group of its own, stopped with it.
  const sidecar = own?.sidecar ? spawn(own.sidecar.command, own.sidecar.args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }) : undefined;
  const child = spawn(command, args, {
    // A fresh empty folder, so the repository's own files (netlify.toml,
    // package.json, .env…) cannot influence the server.
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: own?.env ?? { ...process.env, BROWSER: 'none', NETLIFY_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  let buffer = '';
  const append = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    if (buffer.length > 200_000) buffer = buffer.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  sidecar?.stdout?.on('data', append);
  sidecar?.stderr?.on('data', append);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });

  const origin = `http://127.0.0.1:${port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child, 'SIGTERM');
    if (sidecar) killGroup(sidecar, 'SIGTERM');
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      if (sidecar) killGroup(sidecar, 'SIGKILL');
    }, 5_000);
    await exited(child);
    if (sidecar) await exited(sidecar);
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // stragglers of the group, if any
    if (own) own.cleanup();
    else rmSync(cwd, { recursive: true, force: true });
  };

  const started = performance.now();
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`${name} did not start (${spawnError?.message ?? `exit ${child.exitCode ?? child.signalCode}`}):\n${buffer}`);
    }
    try {
      const response = await fetch(`${origin}/`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > STARTUP_MS) {
      await stop();
      throw new Error(`${name} did not answer GET / within ${STARTUP_MS / 1000} s:\n${buffer}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // The Node server behind it answers too, or the first requests it should take get the server's 502
  // (seen on a loaded machine: it came up after nginx).
  const sidecarPort = own?.sidecar ? own.sidecar.args[own.sidecar.args.indexOf('--port') + 1] : undefined;
  while (sidecar && sidecarPort !== undefined) {
    if (sidecar.exitCode !== null || sidecar.signalCode !== null) {
      await stop();
      throw new Error(`${name}: the Node server behind it did not start (exit ${sidecar.exitCode ?? sidecar.signalCode}):\n${buffer}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${sidecarPort}/`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > STARTUP_MS) {
      await stop();
      throw new Error(`${name}: the Node server behind it did not answer GET / within ${STARTUP_MS / 1000} s:\n${buffer}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { origin, pid: child.pid, output: () => buffer, stop };
}

/** `netlify dev` (offline, Netlify's redirect and header engine) serving siteDir. */
export async function startNetlifyDev(siteDir: string): Promise<RunningServer> {
  const port = await freePort();
  return startServer('netlify-dev', path.join(BIN, 'netlify'), [
    'dev', '--offline', '--internal-disable-edge-functions', '--dir', siteDir, '--port', String(port),
    // Its internal static server on a port of its own: two suites starting netlify dev at once both took 3999.
    '--staticServerPort', String(await freePort()),
  ], port);
}

/** http-server 14.1.1 serving siteDir (`-s`: silent). */
export async function startHttpServer(siteDir: string): Promise<RunningServer> {
  const port = await freePort();
  return startServer('http-server', path.join(BIN, 'http-server'), [siteDir, '-p', String(port), '-s'], port);
}

/**
 * A server started the way `npm run serve -- --server <name>` starts it
 * (scripts/serve.ts): the site's own generated config, a temporary folder
 * for the rest, 127.0.0.1 on a free port.
 */
export async function startSiteServer(server: ServerName, siteDir: string, options: { withNode?: boolean } = {}): Promise<RunningServer> {
  const port = await freePort();
  const command = serverCommand(server, { dir: siteDir, port, host: '127.0.0.1', ...(server === 'netlify' ? { staticPort: await freePort() } : {}), ...(options.withNode ? { node: await freePort() } : {}) });
  return startServer(server, command.command, command.args, port, { cwd: command.tmp, env: command.env, cleanup: command.cleanup, sidecar: command.sidecar });
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
