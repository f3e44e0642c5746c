// node generator/start.mjs [flags]: the CLI (cli.ts) as `npm run build` starts it, without tsx.
//
// Every build pays for its start, the no-op and one-matrix rebuilds too (issue 22: 2 s): tsx
// compiles nothing twice (it caches), but it resolves and loads the generator's hundred modules one
// by one through its loader thread: 0.45-0.55 s of CPU to import build.ts, against 0.15-0.18 s for
// the same code as one file (3 runs each at load 13). So the generator is bundled once by esbuild
// (the one tsx runs with) into .cache/generator/, under a hash of everything it is made from (every
// file under generator/, package.json, package-lock.json, Node's version: what the build's own
// fingerprint takes as the generator, pipeline/fingerprint.ts sourcesHash), and started from there: a
// changed source makes another bundle, never a stale one. The bundle lies inside the project, so that
// its imports of packages find node_modules; each module's import.meta.url is its own file's (a
// plugin writes it in), so that paths beside the sources (assets, the render workers, which still
// load the sources with tsx) are as when run from them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * V8's flags for a build, set before the generator loads (they are the process's: the render and gzip
 * workers started later have them too). A heap grows by up to 1.1-4x its live size after each full
 * collection (V8 picks by the time collections take): a large build's plan and workers are mostly live
 * objects and short-lived texts, so the heap sat far above what it held. Growing by 30% each time collects
 * more often and keeps less garbage: 3x synthetic peak RSS 861 -> 616 MB, user CPU 93 -> 92 s (one run each, at load);
 * 10x 1,363-1,465 MB (three quiet runs before) -> 1,137 MB (one run at load 15-20), its peak now late in the render.
 * A limit on the heap's size is not set: past it a build fails (ERR_WORKER_OUT_OF_MEMORY at 10x with
 * 128 MB a worker); this shapes collections only. Set here rather than on node's command line so that
 * `npm run build`, scripts/build-child.mjs (the benches) and the workers get the same.
 *
 * A function is optimized by TurboFan (on V8's platform threads) once it has run through its interrupt budget
 * a few times; at the default budget (67,584) most of the generator's functions that run at all are, in every
 * process and worker of every build: a rebuild after a matrix is removed spent about 2 s of its 12 s of CPU
 * compiling (perf, cpu-clock samples on the platform threads: compiler:: frames 14% of the process's), for
 * code that runs for a second or two. Eight times the budget (540,672) optimizes the functions that run long
 * and leaves the others in Sparkplug's code: remove and add rebuilds' user CPU 8.8-9.6 -> 7.6-7.8 s (four runs
 * each, alternated, at load 8-10; 4x gave 7.9-8.4 s, 16x 7.7-8.8 s with more on the main thread).
 */
export const BUILD_V8_FLAGS = ['--heap-growing-percent=30', '--interrupt-budget=540672'];

/**
 * Set by build.ts once a site of the shipped size is planned (build.ts SMALL_SITE_FILES), not here: incremental
 * marking starts at 98% of the heap's limit (99%: at once), not V8's own point, less than the young generation's
 * capacity (16 MB) below the limit. With the 30% growth a shipped build's main heap (about 49 MB live through the
 * render) has a limit about 30 MB above it, so V8 began marking after every 14-15 MB promoted, 49 full collections
 * after the plan, one after the other (--trace-gc, --trace-incremental-marking: started by "task" at 48-50 MB of
 * 78-80). Both releases rendered (cpu31, docs/performance.md), alternated pairs: at load 3-8, user CPU 22.2/21.7 s
 * against 23.2/22.8 s, V8's platform threads 4.5/4.4 against 5.4/5.3 s, peak RSS 403/417 against 398/398 MB. Not for
 * a large site: set for the whole 10x synthetic build, it cost more than it saved (plan CPU
 * 15.1 -> 16.7 s, the mirror step's 44.8 -> 57.7 s, user 121.0 -> 125.2 s, one build each; the bench's 10x wall
 * 107 -> 132 s).
 */
export const SMALL_SITE_V8_FLAGS = ['--incremental-marking-soft-trigger=98', '--incremental-marking-hard-trigger=99'];

/** Sets BUILD_V8_FLAGS in this process, and tells build.ts the others (a build's entry point calls it first; importing this module sets nothing). */
export function buildFlags() {
  if (!isMainThread) return;
  for (const flag of BUILD_V8_FLAGS) v8.setFlagsFromString(flag);
  // What build.ts sets back after a rebuild's plan, which it makes with V8's own heap growth (build.ts heapGrowthFlag).
  globalThis[Symbol.for('jaspar.buildFlags')] = BUILD_V8_FLAGS;
  globalThis[Symbol.for('jaspar.smallSiteFlags')] = SMALL_SITE_V8_FLAGS;
}

const CACHE = path.join(ROOT, '.cache/generator');

/** The generator as sourcesHash sees it (root: the project's), and the entry point: a bundle's name. */
export function sourcesDigest(entry, root = ROOT) {
  const hash = createHash('sha1');
  const visit = (rel) => {
    const names = readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of names) {
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) visit(r);
      else if (e.isFile()) {
        const bytes = readFileSync(path.join(root, r));
        hash.update(`${r}\0${bytes.length}\0`).update(bytes);
      }
    }
  };
  visit('generator');
  for (const file of ['package.json', 'package-lock.json']) {
    try {
      hash.update(file).update(readFileSync(path.join(root, file)));
    } catch {
      hash.update(`${file} missing`);
    }
  }
  return hash.update(process.version).update('\0').update(entry).digest('hex').slice(0, 20);
}

/** Each module's import.meta.url as its own source file's, not the bundle's. */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/**
 * Removes the bundles of the same entry point made from earlier sources (each about 0.4 MB, one an edit of
 * the generator), and files left half written, once an hour old: a build started from one just before still
 * finds it. kept: the bundle just made.
 */
export function pruneBundles(dir, kept, now = Date.now()) {
  const prefix = path.basename(kept).replace(/[0-9a-f]+\.mjs$/, '');
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || name === path.basename(kept)) continue;
    try {
      if (now - statSync(path.join(dir, name)).mtimeMs > 3_600_000) rmSync(path.join(dir, name), { force: true });
    } catch {
      // gone already (another build pruned it)
    }
  }
}

/** The module of a source entry point (relative to the project, e.g. generator/build.ts), imported from its bundle (made when there is none for these sources). */
export async function bundled(entry) {
  const file = path.join(CACHE, `${path.basename(entry, '.ts')}-${sourcesDigest(entry)}.mjs`);
  if (!existsSync(file)) {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [path.join(ROOT, entry)], absWorkingDir: ROOT, bundle: true, platform: 'node', format: 'esm', target: 'node20',
      packages: 'external', write: false, logLevel: 'silent', plugins: [ownUrls],
    });
    try {
      mkdirSync(CACHE, { recursive: true });
      // Written whole, then renamed: a build started meanwhile finds the whole bundle or none. The render
      // workers (threads of one process) make theirs at once (pipeline/pool.ts): each writes its own.
      const temp = `${file}.${process.pid}.${threadId}`;
      writeFileSync(temp, result.outputFiles[0].contents);
      renameSync(temp, file);
    } catch {
      // A project folder the user may not write (a shared or read-only checkout): the sources through tsx, as before the bundle.
      const { register } = await import('tsx/esm/api');
      register();
      return import(pathToFileURL(path.join(ROOT, entry)).href);
    }
    pruneBundles(CACHE, file);
  }
  return import(pathToFileURL(file).href);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildFlags();
  await bundled('generator/cli.ts');
}
