// npm run figures [-- DIR]: the figures of a built site (default public/),
// as the README prints them: files and bytes of each release's site, its
// archive, the Netlify rule count, and what a compact build would leave.
// Every figure is counted from the folder, none typed in: the README's
// block is this script's output (test/build/figures.test.ts checks the
// counts against the tests' own build).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { RELEASES_DIR } from '../generator/routes/paths.ts';
import { scopeFiles } from '../generator/mirror/archive.ts';

export interface ReleaseFigures {
  /** "default" (the site's root, other releases' folders aside) or the year of a release under /releases/. */
  release: string;
  files: number;
  bytes: number;
  archiveBytes: number | null;
}

export interface SiteFigures {
  releases: ReleaseFigures[];
  files: number;
  bytes: number;
  rules: number;
}

function walk(dir: string, skip: (rel: string) => boolean, rel = ''): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (!rel && entry.name.startsWith('.') && entry.name !== '.nojekyll') continue; // build state
    if (skip(child)) continue;
    if (entry.isDirectory()) {
      const inner = walk(dir, skip, child);
      files += inner.files;
      bytes += inner.bytes;
    } else if (entry.isFile()) {
      files++;
      bytes += statSync(path.join(dir, child)).size;
    }
  }
  return { files, bytes };
}

export function siteFigures(site: string): SiteFigures {
  const releasesDir = RELEASES_DIR.slice(1, -1);
  const years = existsSync(path.join(site, releasesDir)) ? readdirSync(path.join(site, releasesDir)).sort() : [];
  const archive = (dir: string) => {
    const file = path.join(site, scopeFiles({ dir, exclude: [] }).archive);
    return existsSync(file) ? statSync(file).size : null;
  };
  const root = walk(site, (rel) => rel === releasesDir);
  const releases: ReleaseFigures[] = [{ release: 'default', ...root, archiveBytes: archive('') }];
  for (const year of years) {
    const dir = `${releasesDir}/${year}`;
    releases.push({ release: year, ...walk(path.join(site, dir), () => false), archiveBytes: archive(dir) });
  }
  const rules = existsSync(path.join(site, '_redirects')) ? readFileSync(path.join(site, '_redirects'), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#')).length : 0;
  return { releases, files: releases.reduce((n, r) => n + r.files, 0), bytes: releases.reduce((n, r) => n + r.bytes, 0), rules };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function printFigures(f: SiteFigures): string {
  const rows = f.releases.map((r) => `| ${r.release === 'default' ? 'the default release (the site\'s root)' : `JASPAR ${r.release} (/releases/${r.release}/)`} | ${r.files.toLocaleString('en-US')} | ${mb(r.bytes)} | ${r.archiveBytes === null ? '–' : mb(r.archiveBytes)} |`);
  return [
    '| part of the site | files | bytes (archive included) | archive |',
    '|---|---|---|---|',
    ...rows,
    `| whole site | ${f.files.toLocaleString('en-US')} | ${mb(f.bytes)} | |`,
    '',
    `Netlify rules (_redirects): ${f.rules}.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = path.resolve(process.argv[2] ?? 'public');
  if (!existsSync(site)) {
    process.stderr.write(`figures: ${site} does not exist (fix: npm run build first, or name the built site: npm run figures -- DIR)\n`);
    process.exitCode = 2;
  } else process.stdout.write(`${printFigures(siteFigures(site))}\n`);
}
