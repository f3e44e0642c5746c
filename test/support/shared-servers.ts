// The servers started once per run over the global setup's site and shared
// by every suite that asks for one of them over that site: netlify dev
// without and with the edge function (74-91 s to start on a loaded 2-core
// machine; eight suites started their own), http-server and the DRF
// oracle. The global setup
// starts them once the site is built (test/global-setup.ts) and names them in
// its status file; test/support/site-ready.ts hands them to the test worker in
// SHARED_ENV; startNetlifyDev, startHttpServer, startSiteServer and
// startEdgeServer return the shared one when asked for that site, whose stop()
// leaves it running for the next suite.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { answers } from './process.ts';

export const SHARED_ENV = 'JASPAR_TEST_SHARED_SERVERS';

/** The servers the global setup shares: netlify dev (files and rules), netlify dev with the edge function, http-server,
 *  and the DRF oracle over the site's default release (test/support/oracle.ts). */
export const SHARED_NAMES = ['netlify', 'netlify-edge', 'http-server', 'oracle'] as const;
export type SharedName = (typeof SHARED_NAMES)[number];

export interface SharedServers {
  siteDir: string;
  /** Each server's origin, or why it did not start (the suite then starts its own and reports its error). */
  servers: Partial<Record<SharedName, { origin: string; log: string } | { error: string }>>;
}

/** How long a suite waits for a shared server started again (it died: see test/global-setup.ts). */
const RESTART_WAIT_MS = 240_000;

/** The site the global setup shared its servers over, if any in this worker. */
export function sharedSite(): string | undefined {
  const text = process.env[SHARED_ENV];
  return text ? (JSON.parse(text) as SharedServers).siteDir : undefined;
}

/**
 * The shared server for siteDir, as the suites' helpers return servers, or
 * undefined (none shared in this worker, another folder, or it failed to
 * start). Resolves once it answers: one that died is being started again on
 * its port by the global setup.
 */
export async function sharedServer(name: SharedName, siteDir: string): Promise<{ origin: string; pid?: number; output(): string; stop(): Promise<void> } | undefined> {
  const text = process.env[SHARED_ENV];
  if (!text) return undefined;
  const shared = JSON.parse(text) as SharedServers;
  if (path.resolve(siteDir) !== path.resolve(shared.siteDir)) return undefined;
  const server = shared.servers[name];
  if (!server || !('origin' in server)) return undefined;
  const output = () => {
    const all = existsSync(server.log) ? readFileSync(server.log, 'utf8') : '';
    return all.length > 100_000 ? all.slice(-100_000) : all;
  };
  const started = Date.now();
  while (!(await answers(`${server.origin}/`, { timeoutMs: 10_000 }))) {
    if (Date.now() - started > RESTART_WAIT_MS) throw new Error(`the shared ${name} (${server.origin}) does not answer, nor after ${RESTART_WAIT_MS / 1000} s; its output:\n${output().slice(-5_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return { origin: server.origin, output, stop: async () => {} };
}
