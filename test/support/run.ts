// Child processes for the tests, without blocking the worker's event loop
// (test/support/event-loop.ts says why spawnSync of anything long is out).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from './paths.ts';

export interface Ran {
  /** The exit code, or null when a signal ended the process. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Kill with SIGTERM after this many milliseconds. */
  timeout?: number;
}

/** Runs a command to its end, like spawnSync, and resolves with what it did. */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? PROJECT_ROOT, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = options.timeout ? setTimeout(() => child.kill('SIGTERM'), options.timeout) : undefined;
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => {}); // a child that exits without reading its stdin
    child.stdin.end(options.input ?? '');
  });
}

/** A TypeScript entry point of the project (generator/cli.ts, scripts/verify.ts…), as `npx tsx FILE ARGS` runs it. */
export function runScript(file: string, args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return run(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, file), ...args], options);
}

/** The environment of a user's build: without what the test runner or a host sets that the CLI reads (vitest sets BASE_URL=/). */
export function cliEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ['BASE_URL', 'NETLIFY', 'URL', 'JASPAR_DATA']) delete env[key];
  return env;
}

/** `npm run build -- ARGS`, as a user runs it. */
export const runCli = (args: readonly string[], options: RunOptions = {}): Promise<Ran> => runScript('generator/cli.ts', args, { env: cliEnv(), ...options });

/** A build that must succeed: fails with its stderr unless it exits 0. */
export async function buildOk(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  const ran = await runCli(args, options);
  if (ran.status !== 0) throw new Error(`npm run build -- ${args.join(' ')} exited ${ran.status ?? ran.signal}:\n${ran.stderr}`);
  return ran;
}

/** One turn of the event loop: long synchronous work in a test yields with it now and then (test/support/event-loop.ts). */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
