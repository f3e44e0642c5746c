// Starting, waiting for and stopping the servers the suites run (netlify dev,
// wrangler dev, nginx, Caddy, Apache, http-server, the Node server, the DRF
// oracle): one loop for all of them. Each runs in its own process group, so
// that stopping it stops everything it started (deno, workerd, gunicorn's
// workers), and is ready when its own check says so.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';

export interface ProcessOptions {
  /** Named in errors. */
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A second command stopped with the first (the Node server behind nginx, --with-node), in a group of its own. */
  sidecar?: { command: string; args: readonly string[] };
  /** True once the process serves; called every pollMs until startupMs. */
  ready(): Promise<boolean>;
  startupMs: number;
  pollMs?: number;
  /** What the process prints when it will never serve and keeps running. */
  fatal?: RegExp;
  /** After the group is gone (remove the process's working folder). */
  cleanup?(): unknown;
  /** Also append everything printed to this file (a server shared by the suites: they read it). */
  log?: string;
  /** Wait this long after the command exits before killing stragglers of its group (workerd, deno). */
  stragglersMs?: number;
}

export interface StartedProcess {
  pid: number | undefined;
  /** From spawning to ready, in ms. */
  startupMs: number;
  /** Everything the process (and its sidecar) printed so far, the last 100-200 kB. */
  output(): string;
  /** True while the command runs. */
  running(): boolean;
  /** Resolves when the command exits, for whatever reason. */
  exited: Promise<void>;
  /** Kills the whole group (and the sidecar's), waits for the command to exit, then cleans up. Twice is once. */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the group: the command and everything it started
  } catch {
    // already gone
  }
}

/** A GET of url answers (any status, or one `ok` accepts) within timeoutMs. */
export async function answers(url: string, options: { timeoutMs?: number; ok?: (status: number) => boolean } = {}): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) });
    await response.arrayBuffer();
    return options.ok ? options.ok(response.status) : true;
  } catch {
    return false; // not listening yet
  }
}

/** Starts the command (and its sidecar) and resolves once ready(); stops it and throws with its output if it exits, prints a fatal line or is not ready in time. */
export async function startProcess(o: ProcessOptions): Promise<StartedProcess> {
  const started = performance.now();
  const sidecar = o.sidecar ? spawn(o.sidecar.command, o.sidecar.args, { cwd: o.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }) : undefined;
  const child = spawn(o.command, o.args, { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffer = '';
  const append = (chunk: Buffer) => {
    if (o.log) appendFileSync(o.log, chunk);
    buffer += chunk.toString('utf8');
    if (buffer.length > 200_000) buffer = buffer.slice(-100_000);
  };
  for (const c of [child, sidecar]) {
    c?.stdout?.on('data', append);
    c?.stderr?.on('data', append);
  }
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  sidecar?.once('error', (error) => {
    spawnError = error;
  });
  const gone = (c: ChildProcess | undefined) => c !== undefined && (c.exitCode !== null || c.signalCode !== null);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      killGroup(child, 'SIGTERM');
      killGroup(sidecar, 'SIGTERM');
      const timer = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        killGroup(sidecar, 'SIGKILL');
      }, 5_000);
      await exited(child);
      if (sidecar) await exited(sidecar);
      clearTimeout(timer);
      if (o.stragglersMs) await new Promise((resolve) => setTimeout(resolve, o.stragglersMs));
      killGroup(child, 'SIGKILL'); // stragglers of the group, if any
      killGroup(sidecar, 'SIGKILL');
      await o.cleanup?.();
    })();
    return stopping;
  };
  const fail = async (why: string): Promise<never> => {
    await stop();
    throw new Error(`${o.name} ${why}:\n${buffer}`);
  };

  for (;;) {
    if (spawnError || gone(child)) await fail(`did not start (${spawnError?.message ?? `exit ${child.exitCode ?? child.signalCode}`})`);
    if (gone(sidecar)) await fail(`: the process beside it (${o.sidecar!.command}) did not start (exit ${sidecar!.exitCode ?? sidecar!.signalCode})`);
    const fatal = o.fatal?.exec(buffer);
    if (fatal) await fail(`failed (${fatal[0]})`);
    if (await o.ready()) break;
    if (performance.now() - started > o.startupMs) await fail(`was not ready within ${o.startupMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, o.pollMs ?? 250));
  }
  return { pid: child.pid, startupMs: performance.now() - started, output: () => buffer, running: () => !gone(child), exited: exited(child), stop };
}

/**
 * start() again (twice at most) when it failed because a port found free
 * was taken before the server bound it: another test file's server took it
 * meanwhile (netlify dev: "Could not acquire configured static server
 * port"). start() picks its ports afresh each time.
 */
export async function onOtherPorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt === 3 || !/Could not acquire|EADDRINUSE|address already in use/i.test(String(error))) throw error;
    }
  }
}
