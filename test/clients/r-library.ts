// rbioapi installed from the tarball kept beside its test into a library of
// this project (test/clients/rbioapi/.R-library/, ignored by git), never
// into R's system library. R itself and rbioapi's dependencies come from
// Debian (.ci/run installs them):
//   apt-get install r-base-core r-cran-httr r-cran-jsonlite r-cran-png r-cran-curl
// Installing again only when the tarball changes keeps repeated runs cheap
// (R CMD INSTALL takes ~15 s) and CI idempotent.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../support/run.ts';

export const RBIOAPI_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'rbioapi');
const DEBIAN_PACKAGES = 'r-base-core r-cran-httr r-cran-jsonlite r-cran-png r-cran-curl';

function tarball(): string {
  const found = readdirSync(RBIOAPI_DIR).filter((name) => /^rbioapi-.*\.tar\.gz$/.test(name));
  if (found.length !== 1) throw new Error(`${RBIOAPI_DIR}: expected one rbioapi-*.tar.gz, found ${found.length}`);
  return path.join(RBIOAPI_DIR, found[0]);
}

/** Throws with the fix when Rscript or one of rbioapi's Debian dependencies is missing. */
async function checkR(): Promise<void> {
  let detail: string;
  try {
    const ran = await run('Rscript', ['-e', 'for (p in c("httr", "jsonlite", "png", "curl")) library(p, character.only = TRUE)']);
    if (ran.status === 0) return;
    detail = ran.stderr.trim();
  } catch (error) {
    detail = (error as Error).message; // no Rscript
  }
  throw new Error(`R with rbioapi's dependencies is needed: ${detail.split('\n')[0]} (fix: apt-get install -y --no-install-recommends ${DEBIAN_PACKAGES}, as .ci/run does)`);
}

/**
 * The library folder holding rbioapi (for R_LIBS), installed first if needed.
 * R CMD INSTALL runs without blocking the test worker (test/support/event-loop.ts: 17 s on a fresh clone).
 */
export async function rbioapiLibrary(): Promise<string> {
  await checkR();
  const source = tarball();
  const stamp = createHash('sha256').update(readFileSync(source)).digest('hex');
  const library = path.join(RBIOAPI_DIR, '.R-library');
  const stampFile = path.join(library, 'installed-from.sha256');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === stamp && existsSync(path.join(library, 'rbioapi/DESCRIPTION'))) return library;
  // Install into a fresh folder and move it in place: an interrupted install
  // never leaves a library that looks complete.
  const partial = `${library}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const installed = await run('R', ['CMD', 'INSTALL', '--no-docs', '--no-html', '--no-multiarch', '-l', partial, source], { env: { ...process.env, R_LIBS_USER: partial } }).catch((error: Error) => ({ status: null, stdout: '', stderr: error.message }));
  if (installed.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`R CMD INSTALL ${path.basename(source)} failed:\n${`${installed.stdout}${installed.stderr}`.slice(-2000)}`);
  }
  writeFileSync(path.join(partial, 'installed-from.sha256'), `${stamp}\n`);
  rmSync(library, { recursive: true, force: true });
  renameSync(partial, library);
  return library;
}
