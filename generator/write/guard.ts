// Which folder a build may write into, decided before anything else (before
// the up-to-date check reads the folder): the writer replaces the folder's
// contents as a whole, so pointed at the wrong place it would delete what it
// did not write (issue 15.1: `--out ""` in a checkout removed .git and the
// generator; `--out` equal to the release deleted the release).
//
// Allowed: a folder that is missing, empty, or marked as this build's own
// previous output (the build state kept beside it, write/state.ts: a saved
// state or the mark of an interrupted build). Refused, touching nothing:
// `/`, the home folder, the current folder and its parents, the project and
// anything holding it, the release folder, anything holding it or inside it,
// a path that is a file or a link, and any other non-empty folder. Paths are
// compared as real paths (links in the parents resolved), so a link to the
// project is refused as the project.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPreviousOutput, stateDir } from './state.ts';

/** The output folder may not be used: the message is `--out …: what (fix: …)`. */
export class OutFolderError extends Error {
  constructor(readonly outDir: string, what: string, fix: string) {
    super(`--out ${shown(outDir)}: ${what} (fix: ${fix})`);
    this.name = 'OutFolderError';
  }
}

export interface GuardContext {
  /** The release folder (--data). */
  dataDir: string;
  /** Other release folders the build reads (older_versions), kept as safe as --data. */
  otherData?: string[];
  /** The generator's project root. */
  projectRoot: string;
  cwd?: string;
  home?: string;
}

const shown = (dir: string) => {
  const rel = path.relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? dir : rel;
};

const lstatOf = (p: string): Stats | undefined => {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
};

/** The real path of p, whether or not it exists: its nearest existing ancestor resolved, the rest appended. */
export function realPathOf(p: string): string {
  const abs = path.resolve(p);
  const rest: string[] = [];
  for (let at = abs; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      if (at === path.dirname(at)) return abs;
      rest.push(path.basename(at));
    }
  }
}

/** True when inner is outer or lies inside it (real paths). */
const within = (inner: string, outer: string) => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Throws OutFolderError unless the build may write into outDir. Reads only outDir's own entry, its top-level names and the state beside it. */
export function guardOutDir(outDir: string, context: GuardContext): void {
  const abs = path.resolve(outDir);
  const fix = 'name a new or empty folder for the site, e.g. --out public';
  if (outDir.trim() === '') throw new OutFolderError(abs, 'no folder named (an empty --out is the current folder)', fix);
  const own = lstatOf(abs);
  if (own?.isSymbolicLink()) throw new OutFolderError(abs, 'is a link; the build never writes through a link', 'name the folder the link leads to, or a new folder');
  if (own && !own.isDirectory()) throw new OutFolderError(abs, 'is a file, not a folder', fix);

  const real = realPathOf(abs);
  const cwd = realPathOf(context.cwd ?? process.cwd());
  const home = realPathOf(context.home ?? os.homedir());
  const project = realPathOf(context.projectRoot);
  const data = realPathOf(context.dataDir);
  if (real === path.parse(real).root) throw new OutFolderError(abs, 'is the root of the file system', fix);
  if (real === home) throw new OutFolderError(abs, 'is the home folder', fix);
  if (within(cwd, real)) throw new OutFolderError(abs, real === cwd ? 'is the current folder' : 'holds the current folder', fix);
  if (within(project, real)) throw new OutFolderError(abs, real === project ? 'is the project folder' : 'holds the project folder', fix);
  if (within(data, real)) throw new OutFolderError(abs, real === data ? 'is the release folder (--data)' : 'holds the release folder (--data)', fix);
  if (within(real, data)) throw new OutFolderError(abs, 'is inside the release folder (--data)', 'write the site outside the release, e.g. --out public');
  for (const other of (context.otherData ?? []).map(realPathOf)) {
    if (within(other, real) || within(real, other)) throw new OutFolderError(abs, `${within(real, other) ? 'is inside' : 'holds'} the release folder the older versions come from (${shown(other)})`, 'write the site outside the releases, e.g. --out public');
  }

  // The state lives beside the folder; it must be a plain folder too.
  const state = lstatOf(stateDir(abs));
  if (state && !state.isDirectory()) {
    throw new OutFolderError(abs, `${shown(stateDir(abs))}, where the build keeps its state, is ${state.isSymbolicLink() ? 'a link' : 'not a folder'}`, `remove ${shown(stateDir(abs))}`);
  }
  if (!own) return;
  if (readdirSync(abs).length === 0) return;
  if (isPreviousOutput(abs)) return;
  throw new OutFolderError(abs, 'is a folder that holds files and is not the output of a previous build; the build would replace its contents',
    'name a new or empty folder, or empty this one yourself if its contents may go');
}
