// The plan kept between builds (issue 22: a one-matrix rebuild in 2 s). Planning the shipped site claims
// 285,000 paths for 62,000 tasks, and keying and reusing each of them took most of a one-count rebuild
// (3.1 s of claims and 3.8 s of keys and reuse in a rebuild of 21 s at load 11). What a build keeps here:
// each task's shape (its part, folder, formats and what its key is made of but its records' digests:
// plan/resources.ts PlannedResource.shape), the paths planned with their content, what each part is
// rendered with, and every record's digest. A rebuild whose tasks have exactly the previous build's
// shapes has the previous build's paths, and each task's key differs from the previous one only through
// the digests of the records it shows: the plan leaves out every task that shows no record whose digest
// changed (its files are the previous build's, kept as they are: write/writer.ts open's carry), and plans
// the rest as before. Anything else (a record added or removed, one moved between views or pages, a
// release description, the generator's sources or options changed, a file of the folder altered by hand)
// plans every task, as a build without a kept plan does.
//
// A rebuild whose records all have the previous build's shape (recordShape: the fields that decide tasks,
// not counts, sites' text or annotations; the same ids in each release, in the same order and rows) has the
// previous build's tasks, shapes and all, as long as the parts, the salt and the build's profile are the
// previous build's: a task's signature is made of nothing else. Such a rebuild takes the previous build's
// signatures as its own and asks each task only whether it shows a changed record: computing and hashing
// 47,800 signatures was 0.11-0.15 s of a one-count rebuild's plan (profile at load 8).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { hasSites, hash128, matrixDigest } from '../dataset/digest.ts';
import type { Matrix, Release } from '../dataset/types.ts';
import type { PlanPart, Task, TaskFilter } from './output-plan.ts';
import { keptViews, takeViews, type KeptViews } from '../plan/views.ts';
import { MAX_DIR_ENTRIES } from '../routes/shard.ts';
import { FORMAT_IDS } from '../formats/registry.ts';
import { fileName } from '../routes/urls.ts';

/** What a build keeps for the next one (write/state.ts saveKept, kind "plan"). */
export interface KeptPlanData {
  /** The fingerprint of the build that kept it: the state that build saved has it (an interrupted or failed build saves none). */
  fingerprint: string;
  /** The salt of its tasks' keys (generator sources, base URL, links). */
  salt: string;
  /** Its parts as rendered (partsText). */
  parts: string;
  /** Every task's shape (signature), in plan order. */
  tasks: string[];
  /** Every task's place (its paths: part, folder, formats; a logo's matrix), hashed, in plan order: a rebuild whose records
   *  were added or removed knows which places are new and which have no task now (PlanShapes.carries). Absent: kept by an older build. */
  places?: string[];
  /** The paths planned with their content, in plan order. */
  contents: string[];
  /** Each release's records: year, ids, digests, rows (matrices.csv's order, the lists' tie-breaker) and shapes (recordShape). */
  digests: [number, string[], string[], number[], string[]][];
  /** The build's profile (full, compact): which tasks it plans. */
  profile: string;
  /** Each release's list order, filter values and views by record index (plan/views.ts keptViews), by year. */
  views?: [number, KeptViews][];
}

/**
 * What a record is for the plan's tasks: the fields the planners read to decide which tasks there are, where
 * they lie and what they show by id (plan/views.ts: the views' filter values, the latest versions, the list
 * order by name; plan/resources.ts and endpoints.ts: the base ids' versions, the filter values' index pages,
 * the sites' files; the logos: the ids), but the row, compared apart with the ids (PlanShapes). Counts,
 * sites' text and annotations (tf_family, data_type, species names...) only change what a task prints: its
 * key, through the record's digest. A field that decides a task left out here would carry a stale file
 * (test/pipeline/kept-plan.test.ts compares the shortcut's plan with every signature compared).
 */
export function recordShape(m: Matrix): string {
  const taxIds = m.species.map((s) => s.taxId ?? '').join(',');
  return hash128(`${m.matrixId}\0${m.baseId}\0${m.version}\0${m.collection}\0${m.name}\0${m.taxGroup}\0${taxIds}\0${hasSites(m) ? 'sites' : 'no sites'}`);
}

/** The parts as their tasks are rendered (schedule.ts renderedPart: the notes on the other releases and the folder older
 *  versions were read from are not printed by any task). */
export function partsText(parts: readonly PlanPart[]): string {
  return JSON.stringify(parts.map((p) => {
    const { siteNotes: _notes, ...release } = p.release;
    return { release: { ...release, olderVersions: null }, layout: p.layout };
  }));
}

/** The previous build's files as its state has them (write/state.ts BuildState): each task's first path (its key's), and whether a file is there. */
export interface PreviousFiles {
  firsts(): Iterable<string>;
  has(file: string): boolean;
}

/**
 * Whether new paths may join the files of the folder a previous build wrote without planning its other files
 * again: none differs only in case from a name the folder holds along its way (a file or folder), and no
 * folder grows past MAX_DIR_ENTRIES; what the plan's claims and checkFolderSizes would refuse (output-plan.ts),
 * checked on the folder's listings (a folder it holds no longer is new: what lies under it is among the new
 * paths, which the plan claims and checks). The folder holds more than the previous build's files at most (a
 * file the look finds altered or gone makes the writer plan every task: writer.ts open), so a clash or a size
 * is refused here rather than missed.
 */
function fitsFolder(outDir: string, paths: readonly string[]): boolean {
  const listings = new Map<string, Map<string, string> | null>();
  const list = (dir: string) => {
    let names = listings.get(dir);
    if (names === undefined) {
      try {
        names = new Map(readdirSync(path.join(outDir, dir)).map((n) => [n.toLowerCase(), n]));
      } catch {
        names = null;
      }
      listings.set(dir, names);
    }
    return names;
  };
  if (list('') === null) return false;
  const added = new Map<string, Set<string>>();
  for (const p of paths) {
    const parts = p.split('/');
    let dir = '';
    for (const name of parts) {
      const names = list(dir);
      if (names === null) break;
      const found = names.get(name.toLowerCase());
      if (found !== undefined && found !== name) return false;
      if (found === undefined) {
        let more = added.get(dir);
        if (more === undefined) added.set(dir, (more = new Set()));
        more.add(name);
        if (names.size + more.size > MAX_DIR_ENTRIES) return false;
        break;
      }
      dir = dir === '' ? name : `${dir}/${name}`;
    }
  }
  return true;
}

/** A task's shape: where it lies and what its key is made of but digests; for a resource without one (planned every
 *  build), where it lies. Hashed (128 bits, as the records' digests): spelt out, the 10x synthetic release's 600,000
 *  would be about 80 MB held from the plan's start to the writer's check of the folder. */
function signature(task: Task, part: number): { sig: string; shaped: boolean; place: string } {
  // A logo's shape is its place (its matrix). A resource's signature hashes its place's hash and its shape: the place's
  // text hashed once (both hashed whole were about 0.03-0.06 s more of a plan of every task, at load).
  if (task.kind === 'logo') {
    const place = hash128(`${part}|${task.prefix}|logo ${task.matrix.matrixId}`);
    return { sig: place, shaped: true, place };
  }
  const shape = task.planned.shape;
  const place = hash128(`${part}|${task.prefix}|${task.planned.dir}|${task.formats.join(',')}`);
  return shape === undefined ? { sig: hash128(`${place}|unshaped`), shaped: false, place } : { sig: hash128(`${place}|${shape}`), shaped: true, place };
}

/**
 * The plan's filter (output-plan.ts TaskFilter) of a build that has a kept plan: records every task's shape
 * for the next build, and leaves out those of the previous build's shape that show no changed record.
 * Whether the plan may then go without them is carries(), once every task is planned.
 */
export class PlanShapes implements TaskFilter {
  private readonly signatures: string[] = [];
  /** Each task's place (signature()), in plan order, with the signatures. */
  private readonly places: string[] = [];
  /** The previous build's places, when it kept them and its tasks are not taken whole (sameRecords). */
  private readonly knownPlaces: Set<string> | null;
  /** The paths of the tasks at a place the previous build had no task at (records added: their details, logos, new pages and views). */
  private readonly newPaths: string[] = [];
  /** Every task offered, when the previous build's places are known (its tasks' first paths are asked for only when some of its places have none now). */
  private readonly offeredTasks: Task[] = [];
  /** The previous build's files no task or content path of this plan has (carries, with records removed): the writer drops them from the state it keeps. */
  gone: string[] = [];
  /** The previous build's shapes, when its plan is one this build's tasks may be taken from. */
  private readonly known: Set<string> | null;
  /** Records whose digest is not the previous build's (or with no previous digest). */
  readonly changed = new Set<Matrix>();
  /** Tasks of a shape (or, without one, a place) the previous build did not have. */
  private unknown = 0;
  /** Every record has the previous build's shape (and the build its profile): the tasks are the previous build's, their signatures too. */
  readonly sameRecords: boolean;
  /** Records were added to or removed from a release of the previous build's (its plan kept): the list pages after them shift,
   *  in every view that holds them (thousands of tasks in the shipped site; build.ts starts the render workers now). */
  readonly addedOrRemoved: boolean;
  /** Tasks offered while sameRecords (their signatures not computed). */
  private offered = 0;
  /** Each release's record shapes, in its order (the previous build's where the digest is unchanged). */
  private readonly shapes: string[][];

  constructor(private readonly kept: KeptPlanData | null, releases: readonly Release[], profile: string) {
    const before = new Map((kept?.digests ?? []).map((entry) => [entry[0], entry]));
    // No signatures kept (toKeep: the parts changed, or a plan without tasks): computed again.
    let same = kept !== null && kept.tasks.length > 0 && kept.profile === profile && before.size === releases.length;
    let addedOrRemoved = false;
    this.shapes = releases.map((release) => {
      const was = before.get(release.info.year);
      // Index by id only when the ids are not the previous build's, in order (a record added, removed or moved).
      const inOrder = was !== undefined && was[1].length === release.matrices.length && release.matrices.every((m, i) => was[1][i] === m.matrixId && was[3]?.[i] === m.row);
      const index = inOrder ? null : new Map((was?.[1] ?? []).map((id, i) => [id, i]));
      if (!inOrder) same = false;
      if (was !== undefined && index !== null && (was[1].length !== release.matrices.length || release.matrices.some((m) => !index.has(m.matrixId)))) addedOrRemoved = true;
      return release.matrices.map((m, i) => {
        const at = index === null ? i : index.get(m.matrixId);
        if (at !== undefined && was![2][at] === matrixDigest(m) && was![4]?.[at] !== undefined) return was![4][at];
        if (at === undefined || was![2][at] !== matrixDigest(m)) this.changed.add(m);
        const shape = recordShape(m);
        if (shape !== was?.[4]?.[at ?? -1]) same = false;
        return shape;
      });
    });
    this.sameRecords = same;
    this.addedOrRemoved = kept !== null && addedOrRemoved;
    this.known = kept === null || this.sameRecords ? null : new Set(kept.tasks);
    this.knownPlaces = this.known === null || kept!.places === undefined || kept!.places.length !== kept!.tasks.length ? null : new Set(kept!.places);
    // Records of the previous build's shape, in its order: its list orders and views are this build's (by index).
    if (this.sameRecords) {
      const views = new Map(kept!.views ?? []);
      for (const release of releases) {
        const taken = views.get(release.info.year);
        if (taken !== undefined) takeViews(release, taken);
      }
    }
  }

  take(task: Task, part: number): boolean {
    if (this.sameRecords) {
      this.offered++;
      // Shaped: a logo, or a resource with a shape (plan/resources.ts: the classes that have shape() have holds()).
      if (task.kind === 'logo') return this.changed.has(task.matrix);
      return task.planned.holds === undefined || task.planned.holds(this.changed);
    }
    const { sig, shaped, place } = signature(task, part);
    this.signatures.push(sig);
    this.places.push(place);
    if (this.knownPlaces !== null) {
      this.offeredTasks.push(task);
      if (!this.knownPlaces.has(place)) this.newPaths.push(...task.paths);
    }
    if (this.known === null || !this.known.has(sig)) {
      this.unknown++;
      return true;
    }
    if (!shaped) return true;
    return task.kind === 'logo' ? this.changed.has(task.matrix) : task.planned.holds!(this.changed);
  }

  /**
   * Whether the tasks left out may stay out, their files the previous build's: every task has a shape the
   * previous build had, and the previous build had no other (same paths), with the same content paths, parts
   * and salt (the data's own checks, build.ts planKept: the previous build's state and key salt).
   *
   * Or, records added or removed (outDir: the folder the previous build wrote; previous: its state): the writer
   * keeps the previous state whole but for the files of the places no task has now and of the content paths no
   * longer planned (this.gone: pruned); the tasks at new places and the new content paths are planned, and are
   * checked here against the folder as the plan's claims would have checked them against the left-out tasks'
   * paths (output-plan.ts: case clashes, folder sizes). After a matrix is added to or removed from the shipped
   * site, about 42,900 of its 47,790 tasks are left out (0.4 s of claims, and keys and reuse of each in the
   * render, about 0.7 s of the main thread's CPU, at load 10).
   */
  carries(parts: readonly PlanPart[], contents: readonly string[], leftOut: number, outDir?: string, previous?: PreviousFiles | null): boolean {
    const kept = this.kept;
    if (kept === null || leftOut === 0) return false;
    if (kept.parts !== partsText(parts)) return false;
    if (this.sameRecords) {
      if (kept.tasks.length !== this.offered) return false;
    } else if (this.unknown > 0 || kept.tasks.length !== this.signatures.length) {
      return outDir !== undefined && this.carriesChanged(contents, outDir, previous ?? null);
    } else {
      // Every one known, as many, none twice: the same set of tasks.
      if (new Set(this.signatures).size !== this.signatures.length) return false;
    }
    return kept.contents.length === contents.length && kept.contents.every((c, i) => c === contents[i]);
  }

  /**
   * carries() when the tasks are not the previous build's: the new paths fitting the folder, and every previous place
   * still planned or its task's files known; those files and the content paths no longer planned are this.gone.
   */
  private carriesChanged(contents: readonly string[], outDir: string, previous: PreviousFiles | null): boolean {
    const kept = this.kept!;
    if (this.knownPlaces === null) return false;
    const places = new Set(this.places);
    if (places.size !== this.places.length || new Set(this.signatures).size !== this.signatures.length) return false;
    let gone = 0;
    for (const place of this.knownPlaces) if (!places.has(place)) gone++;
    const planned = new Set(contents);
    const before = new Set(kept.contents);
    if (gone > 0 && (previous === null || !this.goneFiles(previous, planned, before, gone))) return false;
    // The content paths no longer planned (a matrix's binding sites, a view's first-page copies) go too.
    for (const c of kept.contents) if (!planned.has(c)) this.gone.push(c);
    return fitsFolder(outDir, [...this.newPaths, ...contents.filter((c) => !before.has(c))]);
  }

  /**
   * The files of the previous build's tasks at the places no task has now (this.gone), from its state: a task's key lies
   * under its first path, so the first paths of its tasks that no task of this plan starts with are those of the gone
   * places, one each (else false: not known). A logo's is its one file; a resource's files are its folder's files
   * named for a format, a folder no task of this plan has a file in (a resource's folder is its own); else false.
   */
  private goneFiles(previous: PreviousFiles, contents: ReadonlySet<string>, keptContents: ReadonlySet<string>, count: number): boolean {
    const firsts = new Set<string>();
    const folders = new Set<string>();
    for (const task of this.offeredTasks) {
      const first = task.kind === 'logo' ? task.pathAt() : task.pathAt(0);
      firsts.add(first);
      if (task.kind === 'resource') folders.add(first.slice(0, first.lastIndexOf('/') + 1));
    }
    const names = FORMAT_IDS.map(fileName);
    const gone: string[] = [];
    let found = 0;
    for (const first of previous.firsts()) {
      if (firsts.has(first) || keptContents.has(first) || contents.has(first) || !previous.has(first)) continue;
      found++;
      const name = first.slice(first.lastIndexOf('/') + 1);
      if (!names.includes(name)) {
        gone.push(first);
        continue;
      }
      const folder = first.slice(0, first.lastIndexOf('/') + 1);
      if (folders.has(folder)) return false;
      for (const n of names) if (previous.has(`${folder}${n}`) && !contents.has(`${folder}${n}`)) gone.push(`${folder}${n}`);
    }
    if (found !== count) return false;
    this.gone = gone;
    return true;
  }

  /** What this build keeps for the next (its fingerprint, key salt, parts and content paths; every release's digests and shapes). */
  toKeep(fingerprint: string, salt: string, parts: readonly PlanPart[], contents: readonly string[], releases: readonly Release[], profile: string): KeptPlanData {
    const printed = partsText(parts);
    // The previous build's signatures are this one's only with its parts (a task's signature holds its part's
    // layout and release); with other parts none were computed: none kept, and the next build plans every task.
    const tasks = !this.sameRecords ? this.signatures : this.kept!.parts === printed ? this.kept!.tasks : [];
    const places = !this.sameRecords ? this.places : this.kept!.parts === printed ? this.kept!.places : undefined;
    return {
      fingerprint, salt, parts: printed, tasks, ...(places !== undefined ? { places } : {}), contents: [...contents], profile,
      // The previous build's when taken (the same records' places), else made from this build's views.
      views: releases.map((r) => [r.info.year, (this.sameRecords && new Map(this.kept!.views ?? []).get(r.info.year)) || keptViews(r)]),
      digests: releases.map((r, k) => [r.info.year, r.matrices.map((m) => m.matrixId), r.matrices.map(matrixDigest), r.matrices.map((m) => m.row), this.shapes[k]]),
    };
  }
}
