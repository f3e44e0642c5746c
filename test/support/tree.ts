import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Every file under dir, relative, "/"-separated, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/**
 * What a tree holds, without following links: every entry (relative path,
 * "" for dir itself) → "dir", "file <sha256>", "link → <target>" or "other".
 * Two equal snapshots mean nothing was created, removed, written or relinked.
 */
export function treeSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (rel: string) => {
    const abs = rel ? path.join(dir, rel) : dir;
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isSymbolicLink()) out[rel] = `link → ${readlinkSync(abs)}`;
    else if (st.isFile()) out[rel] = `file ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
    else if (st.isDirectory()) {
      out[rel] = 'dir';
      for (const name of readdirSync(abs).sort()) visit(rel ? `${rel}/${name}` : name);
    } else out[rel] = 'other';
  };
  visit('');
  return out;
}
