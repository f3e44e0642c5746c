// A suite's temporary folders (vitest's afterAll: not in tree.ts, which scripts run outside vitest import).
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * The suite's temporary folders, removed when it ends: make(prefix) a new one, keep(dir) one made
 * elsewhere (a fixture release). Removed asynchronously: an rmSync of two full sites blocks the
 * worker for a minute on a busy machine.
 */
export function suiteFolders(): { make(prefix: string): string; keep(dir: string): string } {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const keep = (dir: string) => {
    dirs.push(dir);
    return dir;
  };
  return { make: (prefix) => keep(mkdtempSync(path.join(os.tmpdir(), prefix))), keep };
}
