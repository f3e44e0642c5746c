// Builds the site the "site" suites read, once per test run, into a temporary
// folder, and hands its path and its release folders to the suites
// (inject('siteDir'), inject('siteData')). The build is the real CLI, as a
// user runs it.
//
// Which site depends on the project (vitest.config.ts):
// - "site" (`npm test`): the fixture site, about 100 matrices of each shipped
//   release cut from data/ (test/support/fixture-site.ts), built in seconds;
// - "full" (`npm run test:full`, vitest.full.config.ts): the full site of
//   both shipped releases (or JASPAR_DATA's), 285,000 files, 2-3 minutes.
// Suites read their expected values from the release folders the site was
// built from (test/support/paths.ts dataDir(), siteDataDirs()), so the same
// suite runs on either.
//
// Vitest starts every project's global setup before any test runs, so the
// build is started here in the background and the unit tests run meanwhile;
// every file of the project first waits for it (test/support/site-ready.ts),
// and fails if it failed.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeFixtureSite } from './support/fixture-site.ts';
import { startEdgeServer } from './support/edge-servers.ts';
import { PROJECT_ROOT, SITE_BASE_URL, siteDataDirs } from './support/paths.ts';
import { startOracle } from './support/oracle.ts';
import { startHttpServer, startSiteServer } from './support/servers.ts';
import { SHARED_NAMES, type SharedName, type SharedServers } from './support/shared-servers.ts';

export default function setup(project: TestProject) {
  const full = project.name === 'full';
  const root = mkdtempSync(path.join(os.tmpdir(), full ? 'jaspar-site-' : 'jaspar-fixture-site-'));
  // Readable by others: Apache started as root serves as "nobody" (test/hosts/).
  chmodSync(root, 0o755);
  const siteDir = path.join(root, 'public');
  const status = path.join(root, 'build-status.json');
  const started = performance.now();
  const dataDirs = full ? siteDataDirs() : makeFixtureSite(path.join(root, 'data')).dataDirs;
  const what = full ? 'full site' : 'fixture site';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'generator/cli.ts'), ...dataDirs.flatMap((d) => ['--data', d]), '--out', siteDir, '--base-url', SITE_BASE_URL], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // The servers the suites share (test/support/shared-servers.ts), started once the site is built.
  const servers: { name: SharedName; server?: { stop(): Promise<void>; exited?: Promise<void> } }[] = [];
  // The full site's suites (vitest.full.config.ts) use no netlify dev with the edge function.
  const names = SHARED_NAMES.filter((n) => !(full && n === 'netlify-edge'));
  let stopping = false;
  const startShared = async (): Promise<SharedServers['servers']> => {
    const start = (name: SharedName, log: string, port?: number) =>
      name === 'netlify' ? startSiteServer('netlify', siteDir, { log, port })
        : name === 'netlify-edge' ? startEdgeServer('netlify', siteDir, { log, port })
          : name === 'oracle' ? startOracle({ data: dataDirs[0], log, ...(port === undefined ? {} : { port }) })
            : startHttpServer(siteDir, { log, port });
    const entries = await Promise.all(names.map(async (name) => {
      const log = path.join(root, `${name}.log`);
      const entry: (typeof servers)[number] = { name };
      servers.push(entry);
      try {
        const server = await start(name, log);
        entry.server = server;
        // One that dies (netlify dev does on a malformed escape in a URL, a netlify-cli bug, scripts/serve.ts) is
        // started again on its port; the suites wait for it (shared-servers.ts). Three times at most.
        const port = Number(new URL(server.origin).port);
        void (async () => {
          for (let restarts = 1; restarts <= 3; restarts++) {
            await entry.server?.exited;
            if (stopping) return;
            await entry.server?.stop(); // what it left: stragglers of its group, its working folder
            process.stdout.write(`global setup: the shared ${name} stopped (its output: ${log}); starting it again on port ${port} (${restarts} of 3)\n`);
            try {
              entry.server = await start(name, log, port);
            } catch (error) {
              process.stdout.write(`global setup: the shared ${name} did not start again: ${(error as Error).message.split('\n')[0]}\n`);
              return;
            }
          }
        })();
        return [name, { origin: server.origin, log }] as const;
      } catch (error) {
        return [name, { error: (error as Error).message.slice(0, 2_000) }] as const;
      }
    }));
    return Object.fromEntries(entries);
  };
  const done = async (result: { code: number | null; error?: string }) => {
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`global setup: ${what} built in ${seconds.toFixed(1)} s (exit ${result.code}) → ${siteDir}\n`);
    const shared: SharedServers = { siteDir, servers: result.code === 0 && !stopping ? await startShared() : {} };
    const up = Object.entries(shared.servers).map(([name, s]) => `${name} ${'origin' in s ? s.origin : `failed: ${s.error.split('\n')[0]}`}`);
    if (up.length > 0) process.stdout.write(`global setup: shared servers up ${((performance.now() - started) / 1000 - seconds).toFixed(1)} s later: ${up.join(', ')}\n`);
    writeFileSync(status, JSON.stringify({ ...result, seconds, what, shared }));
  };
  child.once('error', (error) => void done({ code: null, error: error.message }));
  child.once('exit', (code, signal) => void done({ code, ...(signal ? { error: `killed by ${signal}` } : {}) }));
  project.provide('siteDir', siteDir);
  project.provide('siteKind', full ? 'full' : 'fixture');
  project.provide('siteData', dataDirs);
  project.provide('siteBuildStatus', status);
  return async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await Promise.all(servers.map((s) => s.server?.stop()));
    await fs.rm(root, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    siteDir: string;
    /** Which site: the fixture's (`npm test`) or both full releases (`npm run test:full`). */
    siteKind: 'fixture' | 'full';
    /** The release folders the site is built from, oldest (the default release) first. */
    siteData: string[];
    /** A JSON file written when the build ends: { code, error?, seconds, what }. */
    siteBuildStatus: string;
  }
}
