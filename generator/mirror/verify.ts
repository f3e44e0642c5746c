// Checks a mirror (an unpacked archive, or the built site) against the
// manifest inside it: every listed file present with its SHA-256, nothing
// else there. The manifest itself, the archive and its checksum are the
// files it does not list (the archive is checked against its checksum where
// both are there: the built site); entries
// at the root whose name starts with "." (build state) are ignored, as the
// archive leaves them out.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from './layout.ts';
import { byPathBytes, hashFile, listSite, parseManifest, sha256 } from './manifest.ts';

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
  const manifest = parseManifest(text, manifestFile);
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
  const unlisted = new Set([rel(MANIFEST), rel(ARCHIVE), rel(ARCHIVE_SUM)]);
  for (const file of [...files, ...others].sort(byPathBytes)) {
    if (!unlisted.has(file) && !manifest.has(file)) report.extra.push(file);
  }
  if (present.has(rel(ARCHIVE)) !== present.has(rel(ARCHIVE_SUM))) report.missing.push(present.has(rel(ARCHIVE)) ? rel(ARCHIVE_SUM) : rel(ARCHIVE));
  else if (present.has(rel(ARCHIVE))) {
    const line = /^([0-9a-f]{64}) {2}(.+)\n$/.exec(readFileSync(path.join(root, rel(ARCHIVE_SUM)), 'utf8'));
    const full = path.join(root, rel(ARCHIVE));
    report.bytes += statSync(full).size;
    if (!line || line[2] !== path.basename(full) || hashFile(full) !== line[1]) report.altered.push(rel(ARCHIVE));
  }
  return report;
}

export const intact = (r: VerifyReport) => r.missing.length + r.altered.length + r.extra.length === 0;
