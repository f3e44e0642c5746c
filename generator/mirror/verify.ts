// Checks a mirror (an unpacked archive, or the built site) against the
// manifest inside it: every listed file present with its SHA-256, nothing
// else there. The manifest itself, the archive and its checksum are the
// files it does not list (the archive is checked against its checksum where
// both are there: the built site); entries
// at the root whose name starts with "." (build state) are ignored, as the
// archive leaves them out.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ARCHIVE_FOLDER, MANIFEST, rel } from './layout.ts';
import { byPathBytes, hashFile, listSite, parseManifest, sha256 } from './manifest.ts';
import { WHOLE_SITE, scopeFiles, type MirrorScope } from './archive.ts';
import { RELEASES_DIR } from '../routes/paths.ts';

/** The archives a site or unpacked mirror holds: its root's, and each other release's site under releases/ that has its own manifest. */
function scopesOf(root: string): MirrorScope[] {
  const releases = path.join(root, RELEASES_DIR.slice(1, -1));
  let dirs: string[] = [];
  try {
    dirs = readdirSync(releases).sort().map((name) => `${RELEASES_DIR.slice(1)}${name}`).filter((dir) => existsSync(path.join(root, scopeFiles({ dir, exclude: [] }).manifest)));
  } catch {
    dirs = [];
  }
  return dirs.length === 0 ? [WHOLE_SITE] : [{ dir: '', exclude: [RELEASES_DIR.slice(1, -1)] }, ...dirs.map((dir) => ({ dir, exclude: [] }))];
}

export interface VerifyReport {
  manifestFile: string;
  manifestSha256: string;
  /** Files listed in the manifest and their total bytes as found. */
  listed: number;
  bytes: number;
  missing: string[];
  altered: string[];
  /** Present but not listed (files, and anything that is not a regular file). */
  extra: string[];
}

export class NoManifestError extends Error {}

export function verifyMirror(dir: string): VerifyReport {
  const root = path.resolve(dir);
  const manifestFile = path.join(root, rel(MANIFEST));
  let text: string;
  try {
    text = readFileSync(manifestFile, 'utf8');
  } catch {
    const inside = path.join(dir, ARCHIVE_FOLDER);
    const fix = existsSync(path.join(inside, rel(MANIFEST)))
      ? `give the unpacked folder: ${inside}`
      : `give the folder that holds ${rel(MANIFEST)}: the site's output folder or the ${ARCHIVE_FOLDER} folder the archive unpacks into`;
    throw new NoManifestError(`${manifestFile}: no manifest here (fix: ${fix})`);
  }
  // Every release's manifest present (each archive's): one list of the site's files.
  const scopes = scopesOf(root);
  const manifest = parseManifest(text, manifestFile);
  for (const scope of scopes.slice(1)) {
    const file = path.join(root, scopeFiles(scope).manifest);
    const more = readFileSync(file, 'utf8');
    text += more;
    for (const [listed, hex] of parseManifest(more, file)) manifest.set(listed, hex);
  }
  const { files, others } = listSite(root);
  const present = new Set(files);
  const report: VerifyReport = { manifestFile, manifestSha256: sha256(text), listed: manifest.size, bytes: 0, missing: [], altered: [], extra: [] };
  for (const [file, expected] of [...manifest].sort(([a], [b]) => byPathBytes(a, b))) {
    if (!present.has(file)) {
      report.missing.push(file);
      continue;
    }
    const full = path.join(root, file);
    report.bytes += statSync(full).size;
    if (hashFile(full) !== expected) report.altered.push(file);
  }
  const unlisted = new Set(scopes.flatMap((scope) => Object.values(scopeFiles(scope))));
  for (const file of [...files, ...others].sort(byPathBytes)) {
    if (!unlisted.has(file) && !manifest.has(file)) report.extra.push(file);
  }
  for (const scope of scopes) {
    const own = scopeFiles(scope);
    if (present.has(own.archive) !== present.has(own.sum)) report.missing.push(present.has(own.archive) ? own.sum : own.archive);
    else if (present.has(own.archive)) {
      const line = /^([0-9a-f]{64}) {2}(.+)\n$/.exec(readFileSync(path.join(root, own.sum), 'utf8'));
      const full = path.join(root, own.archive);
      report.bytes += statSync(full).size;
      if (!line || line[2] !== path.basename(full) || hashFile(full) !== line[1]) report.altered.push(own.archive);
    }
  }
  report.listed = manifest.size;
  report.manifestSha256 = sha256(text);
  return report;
}

export const intact = (r: VerifyReport) => r.missing.length + r.altered.length + r.extra.length === 0;
