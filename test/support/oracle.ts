// The DRF oracle (test/oracle/drf, a Django REST Framework stand-in of the
// real JASPAR service) for the tests: loads the release into SQLite once
// (cached in the system temp folder under the hash of the release and of the
// oracle's sources, so later runs start in a second), starts gunicorn on a
// loopback port in its own process group, and stops it as a whole.
// Needs Debian's python3 with python3-django, python3-djangorestframework,
// python3-yaml and python3-gunicorn (.ci/run installs them).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { folderHash } from '../../generator/pipeline/fingerprint.ts';
import { PROJECT_ROOT, dataDir } from './paths.ts';
import { answers, startProcess } from './process.ts';
import { freePort } from './servers.ts';
import { sharedServer, sharedSite } from './shared-servers.ts';

export const ORACLE_DIR = path.join(PROJECT_ROOT, 'test/oracle/drf');
const STARTUP_MS = 60_000;

export interface Oracle {
  /** "http://127.0.0.1:<port>" */
  origin: string;
  output(): string;
  stop(): Promise<void>;
  /** Resolves when gunicorn exits (a shared one is watched and started again). */
  exited?: Promise<void>;
}

/** The first python3 that imports what the oracle needs (a pyenv or venv python3 earlier on PATH usually does not). */
export function oraclePython(): string | null {
  const candidates = [process.env.ORACLE_PYTHON, '/usr/bin/python3', ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, 'python3'))];
  for (const candidate of candidates) {
    if (!candidate || !existsSync(candidate)) continue;
    try {
      execFileSync(candidate, ['-c', 'import django, rest_framework, yaml, gunicorn'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // lacks a package
    }
  }
  return null;
}

/** The SQLite file of this release, loaded once per release and oracle version. */
export async function oracleDatabase(python: string, data = dataDir()): Promise<string> {
  const hash = folderHash(path.join(ORACLE_DIR, 'matrix'), folderHash(data)).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'jaspar-drf-oracle');
  const db = path.join(dir, `${hash}.sqlite3`);
  if (existsSync(db)) return db;
  mkdirSync(dir, { recursive: true });
  // Loaded under a name of its own, then renamed: a parallel run never sees half a database.
  const partial = path.join(dir, `${hash}.${process.pid}.partial.sqlite3`);
  try {
    // Not execFileSync: a test worker blocked for long misses Vitest's RPC deadline.
    await promisify(execFile)(python, ['manage.py', 'load_jaspar', '--data', data], {
      cwd: ORACLE_DIR,
      env: { ...process.env, JASPAR_DB: partial, JASPAR_DATA: data },
      maxBuffer: 64 * 1024 * 1024,
    });
    renameSync(partial, db);
  } finally {
    rmSync(partial, { force: true });
  }
  return db;
}

export interface OracleOptions {
  /** Listen here (a shared oracle started again where it was); default a free loopback port. */
  port?: number;
  workers?: number;
  /** The release folder (default: test/support/paths.ts dataDir(), the site's default release). */
  data?: string;
  /** Also append its output to this file (test/support/process.ts). */
  log?: string;
}

/**
 * Starts the oracle (gunicorn, two workers) on a free loopback port. Without
 * options, inside a run whose global setup started one over its site (whose
 * default release dataDir() is), that one (test/support/shared-servers.ts):
 * its stop() leaves it running.
 */
export async function startOracle(options: OracleOptions = {}): Promise<Oracle> {
  const site = sharedSite();
  const shared = Object.keys(options).length === 0 && site !== undefined ? await sharedServer('oracle', site) : undefined;
  if (shared) return { origin: shared.origin, output: shared.output, stop: shared.stop };
  const python = oraclePython();
  if (python === null) throw new Error('no python3 with django, rest_framework, yaml and gunicorn: apt-get install python3-django python3-djangorestframework python3-yaml python3-gunicorn');
  const data = options.data ?? dataDir();
  const db = await oracleDatabase(python, data);
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const started = await startProcess({
    name: 'the oracle',
    command: python,
    args: ['-m', 'gunicorn', '--workers', String(options.workers ?? 2), '--bind', `127.0.0.1:${port}`, 'standin.wsgi:application'],
    cwd: ORACLE_DIR,
    env: { ...process.env, JASPAR_DB: db, JASPAR_DATA: data, PYTHONDONTWRITEBYTECODE: '1' },
    ready: () => answers(`${origin}/api/v1/matrix/?page_size=1`, { ok: (status) => status >= 200 && status < 300 }),
    startupMs: STARTUP_MS,
    pollMs: 200,
    log: options.log,
  });
  return { origin, output: started.output, stop: started.stop, exited: started.exited };
}
