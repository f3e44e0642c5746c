// The only module that touches the output folder. A build writes into a
// fresh temporary folder beside the target and swaps it in at the end, so a
// failed build leaves the previous site as it was.
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Netlify refuses deploys with more entries than this in one folder. */
export const MAX_DIR_ENTRIES = 54_000;

export type Outputs = Map<string, string | Buffer>;

export class OutputPlan {
  readonly files: Outputs = new Map();
  private readonly folders = new Set<string>();

  /** Plans a file; relative path with "/" separators. Refuses clashes and escapes. */
  add(relPath: string, content: string | Buffer): void {
    const normal = path.posix.normalize(relPath);
    if (normal !== relPath || normal.startsWith('../') || normal.startsWith('/') || normal === '..' || normal === '.') {
      throw new Error(`output path "${relPath}" is not a clean relative path inside the output folder`);
    }
    if (this.files.has(relPath)) throw new Error(`two resources map to the same output file ${relPath}`);
    if (this.folders.has(relPath)) throw new Error(`output file ${relPath} would replace a folder of other outputs`);
    const parts = relPath.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (this.files.has(folder)) throw new Error(`output file ${relPath} needs ${folder} to be a folder, but it is an output file`);
      this.folders.add(folder);
    }
    this.files.set(relPath, content);
  }

  /** Throws when a folder would hold more entries than a host accepts. */
  checkFolderSizes(limit = MAX_DIR_ENTRIES): void {
    const entries = new Map<string, Set<string>>();
    for (const file of this.files.keys()) {
      const parts = file.split('/');
      for (let i = 0; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        let set = entries.get(dir);
        if (!set) entries.set(dir, (set = new Set()));
        set.add(parts[i]);
      }
    }
    for (const [dir, set] of entries) {
      if (set.size > limit) throw new Error(`folder "${dir || '.'}" would hold ${set.size} entries; Netlify accepts at most ${limit}`);
    }
  }

  get bytes(): number {
    let total = 0;
    for (const c of this.files.values()) total += typeof c === 'string' ? Buffer.byteLength(c) : c.length;
    return total;
  }
}

/** Writes every planned file into a temporary folder, then replaces outDir with it. */
export async function writeSite(plan: OutputPlan, outDir: string, concurrency = 64): Promise<void> {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  const stamp = `${process.pid}-${Date.now()}`;
  const temp = path.join(parent, `.${path.basename(target)}-new-${stamp}`);
  const old = path.join(parent, `.${path.basename(target)}-old-${stamp}`);
  await mkdir(temp, { recursive: true });
  try {
    const dirs = new Set<string>();
    for (const file of plan.files.keys()) dirs.add(path.posix.dirname(file));
    for (const dir of [...dirs].sort()) await mkdir(path.join(temp, dir), { recursive: true });
    const files = [...plan.files];
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const [file, content] = files[next++];
        await writeFile(path.join(temp, file), content);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  let moved = false;
  try {
    await rename(target, old);
    moved = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }
  await rename(temp, target);
  if (moved) await rm(old, { recursive: true, force: true });
}
