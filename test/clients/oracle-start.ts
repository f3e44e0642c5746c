// A minimal start of the DRF oracle (a Django REST Framework stand-in of the
// real JASPAR service) for the client tests, kept apart so that it can be
// swapped for test/support/oracle.ts once that exists. It uses the oracle's
// copy in the repository (test/oracle/drf) when present, else
// $JASPAR_DRF_ORACLE, else ../shared/oracle/drf; loads the release the tests
// use (data/jaspar-2024) into an SQLite file cached in the temp folder by the
// hash of the release and of the loader; starts gunicorn on a free loopback
// port. Debian's python3 with python3-django python3-djangorestframework
// python3-yaml python3-gunicorn is needed (the first python3 on PATH that
// imports them). Nothing is written into the oracle's folder
// (PYTHONDONTWRITEBYTECODE).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, dataDir } from '../support/paths.ts';
import { freePort, type RunningServer } from '../support/servers.ts';

const STARTUP_MS = 60_000;

function oracleDir(): string {
  const candidates = [path.join(PROJECT_ROOT, 'test/oracle/drf'), process.env.JASPAR_DRF_ORACLE, path.resolve(PROJECT_ROOT, '../shared/oracle/drf')];
  for (const dir of candidates) if (dir && existsSync(path.join(dir, 'manage.py'))) return dir;
  throw new Error(`the DRF oracle was not found in ${candidates.filter(Boolean).join(', ')} (fix: set JASPAR_DRF_ORACLE to its folder)`);
}

function python(): string {
  const found = new Set<string>();
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir && existsSync(path.join(dir, 'python3'))) found.add(path.join(dir, 'python3'));
  found.add('/usr/bin/python3');
  for (const candidate of found) {
    try {
      execFileSync(candidate, ['-c', 'import django, rest_framework, yaml, gunicorn'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // a python3 without Debian's packages (pyenv, venv): try the next
    }
  }
  throw new Error('no python3 imports django, rest_framework, yaml and gunicorn (fix: apt-get install -y python3-django python3-djangorestframework python3-yaml python3-gunicorn)');
}

/** The SQLite file of the release, loaded once per release and loader version. */
function database(py: string, dir: string, data: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256');
  for (const file of ['matrices.csv', 'pfm_noninteger.json']) hash.update(readFileSync(path.join(data, file)));
  for (const name of readdirSync(path.join(data, 'matrices')).sort()) hash.update(name).update(readFileSync(path.join(data, 'matrices', name)));
  hash.update(readFileSync(path.join(dir, 'matrix/management/commands/load_jaspar.py'))).update(readFileSync(path.join(dir, 'matrix/models.py')));
  const cache = path.join(os.tmpdir(), 'jaspar-drf-oracle-db');
  const file = path.join(cache, `${hash.digest('hex').slice(0, 16)}.sqlite3`);
  if (existsSync(file)) return file;
  mkdirSync(cache, { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  execFileSync(py, ['manage.py', 'load_jaspar', '--data', data], { cwd: dir, env: { ...env, JASPAR_DB: partial }, stdio: 'pipe' });
  renameSync(partial, file);
  return file;
}

/** The oracle on 127.0.0.1:<free port>, serving the tests' release. */
export async function startOracle(): Promise<RunningServer> {
  const dir = oracleDir();
  const py = python();
  const data = dataDir();
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', JASPAR_DATA: data };
  delete env.JASPAR_THROTTLE;
  delete env.DJANGO_DEBUG;
  const db = database(py, dir, data, env);
  const port = await freePort();
  const child = spawn(py, ['-m', 'gunicorn', '--workers', '2', '--bind', `127.0.0.1:${port}`, 'standin.wsgi:application'], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, JASPAR_DB: db },
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const kill = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal); // gunicorn and its workers
      } catch {
        // already gone
      }
    };
    kill('SIGTERM');
    const timer = setTimeout(() => kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the DRF oracle did not start:\n${output}`);
    try {
      const response = await fetch(`${origin}/api/v1/matrix/?page_size=1`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > STARTUP_MS) {
      await stop();
      throw new Error(`the DRF oracle did not answer within ${STARTUP_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { origin, output: () => output, stop };
}
