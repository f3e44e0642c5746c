// Compares a compact build, answered through the edge handler in process,
// with the full build of the same release: every file the full build has and
// the compact one lacks, asked by its path URL, must come back byte for byte
// (test/edge/compact.test.ts; the lead's check after a change:
// `npx tsx test/edge/compact-compare.ts FULL_DIR COMPACT_DIR`).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHandler } from '../../generator/edge/handler.ts';
import { ARCHIVE, ARCHIVE_SUM, MANIFEST } from '../../generator/mirror/layout.ts';
import { turn } from '../support/run.ts';
import { folderSite } from './folder-site.ts';

/** Files of a built site (relative paths with '/'), without the writer's and the mirror's own state (names starting with '.'). */
export function siteFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else files.push(child);
    }
  };
  walk('');
  return files.sort();
}

/** What a compact build leaves out that nothing renders: the mirror's archive and manifest. */
export const NOT_RENDERED = new Set([ARCHIVE.slice(1), ARCHIVE_SUM.slice(1), MANIFEST.slice(1)]);

export interface Comparison {
  fullFiles: number;
  compactFiles: number;
  /** Files of the compact build that the full build lacks (none expected). */
  extra: string[];
  /** Files of both whose bytes differ. */
  changedKept: string[];
  compared: number;
  /** `path: what differs`. */
  different: string[];
  /** Paths compared, by kind (the first two segments after /api/v1/ or the top folder). */
  kinds: Map<string, number>;
}

/** A file of another release's site (releases/2026/…) is of its kind in that site. */
const inRelease = (file: string) => file.replace(/^releases\/[0-9]{4}\//, '');

function kindOf(file: string): string {
  const parts = inRelease(file).split('/');
  if (parts[0] === 'api') {
    if (parts[2] !== 'matrix') return `api/v1/${parts[2]}`;
    const id = /^[A-Z]{2}[0-9]{4}/.test(parts[3] ?? '');
    return id ? `matrix/${parts.includes('versions') ? 'versions' : /\.[0-9]+$/.test(parts[3]) ? 'detail' : 'base id'}` : `matrix/${parts.length > 5 ? 'views' : 'list'}`;
  }
  return parts.slice(0, -1).join('/') || parts[0];
}

/**
 * Asks the handler over the compact folder for every file `files` names
 * (all the full build has and the compact one lacks when absent).
 * `sample`: keep one in n of each kind (1: every one).
 */
export async function compareCompact(fullDir: string, compactDir: string, { sample = 1, onProgress }: { sample?: number; onProgress?: (done: number) => void } = {}): Promise<Comparison> {
  const full = siteFiles(fullDir);
  const compact = siteFiles(compactDir);
  const inCompact = new Set(compact);
  const inFull = new Set(full);
  const result: Comparison = {
    fullFiles: full.length,
    compactFiles: compact.length,
    extra: compact.filter((f) => !inFull.has(f)),
    changedKept: [],
    compared: 0,
    different: [],
    kinds: new Map(),
  };
  // Kept files are the full build's, but for the edge index (it says "compact") and the home and downloads pages (no archive).
  for (const f of compact) {
    const own = inRelease(f); // every release's site has its own index, home and downloads page
    if (!inFull.has(f) || own === '_edge/index.json' || own === 'download/index.html' || own === 'index.html') continue;
    if (!readFileSync(path.join(compactDir, f)).equals(readFileSync(path.join(fullDir, f)))) result.changedKept.push(f);
  }
  const handle = createHandler();
  const site = folderSite(compactDir);
  const seen = new Map<string, number>();
  for (const file of full) {
    if (inCompact.has(file) || NOT_RENDERED.has(inRelease(file))) continue;
    const kind = kindOf(file);
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    if (n % sample !== 0) continue;
    const response = await handle(new Request(`http://jaspar.test/${file}`), site);
    const body = Buffer.from(await response.arrayBuffer());
    const expected = readFileSync(path.join(fullDir, file));
    result.compared++;
    result.kinds.set(kind, (result.kinds.get(kind) ?? 0) + 1);
    if (response.status !== 200) result.different.push(`/${file}: status ${response.status}`);
    else if (!body.equals(expected)) result.different.push(`/${file}: ${body.length} bytes, the full build's file ${expected.length}`);
    if (result.compared % 500 === 0) {
      onProgress?.(result.compared);
      // Lets the test runner's messages through (a worker blocked too long fails the run).
      await turn();
    }
  }
  return result;
}

export function summary(c: Comparison): string {
  const kinds = [...c.kinds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(', ');
  return `compact build: ${c.compactFiles} files (full: ${c.fullFiles}); ${c.compared} missing files asked through the handler, ${c.different.length} different (${kinds})`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [fullDir, compactDir, sample] = process.argv.slice(2);
  const c = await compareCompact(path.resolve(fullDir), path.resolve(compactDir), { sample: Number(sample ?? 1), onProgress: (n) => process.stderr.write(`${n}…\r`) });
  process.stdout.write(`${summary(c)}\n`);
  for (const line of [...c.extra.map((f) => `extra: ${f}`), ...c.changedKept.map((f) => `kept but changed: ${f}`), ...c.different].slice(0, 40)) process.stdout.write(`${line}\n`);
}
