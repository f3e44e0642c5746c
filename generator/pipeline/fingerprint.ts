// What a site is built from, as hashes: the release folder (every file, by
// content), the generator (its sources, assets, package manifest and lock,
// the Node version) and the options. Equal fingerprints and an unaltered
// output folder mean the site is already what this build would write.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Hash of every file under dir (relative paths and contents, in name order). */
export function folderHash(dir: string, hash = createHash('sha1')): ReturnType<typeof createHash> {
  const visit = (rel: string) => {
    const entries = readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) visit(r);
      else if (e.isFile()) {
        const bytes = readFileSync(path.join(dir, r));
        hash.update(`${r}\0${bytes.length}\0`).update(bytes);
      }
    }
  };
  visit('');
  return hash;
}

/** The generator: everything under generator/, package.json, package-lock.json, and Node's version. */
export function sourcesHash(projectRoot: string): string {
  const hash = folderHash(path.join(projectRoot, 'generator'));
  for (const file of ['package.json', 'package-lock.json']) {
    try {
      hash.update(file).update(readFileSync(path.join(projectRoot, file)));
    } catch {
      hash.update(`${file} missing`);
    }
  }
  return hash.update(process.version).digest('hex');
}

/** The release folder; a missing or unreadable one hashes as such (the loader reports it). */
export function dataHash(dataDir: string): string {
  try {
    return folderHash(dataDir).digest('hex');
  } catch (error) {
    return hashOf('unreadable', dataDir, (error as Error).message);
  }
}

export const hashOf = (...parts: string[]): string => {
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('hex');
};
