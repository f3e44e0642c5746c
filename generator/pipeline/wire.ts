// Tasks across threads. v8.serialize keeps shared objects shared (a list
// page's results are serialized once for its nine formats) but not classes:
// PyFloat (a JSON number printed as a Python float) travels as a tagged
// object and is made a PyFloat again on the other side.
//
// The matrices a resource shows (Resource.matrices: whole records, counts,
// annotations and binding-site BED text) travel by number: each record is
// sent to the workers once (MatrixRefs), before the first batch that shows
// it, and a task carries its records' numbers. A list page of a filtered
// view or a large page size shows hundreds of records, and the same record
// is on dozens of pages: the 2024 release's tasks were 791 MB serialized
// with their records, 144 MB with numbers.
import { deserialize, serialize } from 'node:v8';
import type { Matrix } from '../dataset/types.ts';
import { PyFloat, type Json, type Resource } from '../formats/types.ts';
import type { WireTask } from './render.ts';

const TAG = '\u0000PyFloat';

/**
 * The main thread's side: a number for each record, and the records not yet
 * sent to the workers (taken by the next batch, which sends them first).
 * The workers hold at most about HELD records (a 3x synthetic release's
 * 15,834 records held by both workers took the build's peak RSS from 1,142
 * to 1,495 MB): past that, after the batch being sent, they forget a
 * sixteenth of them, and a record forgotten is numbered and sent afresh when
 * shown again.
 * The tasks come a window of records in list order at a time (schedule.ts
 * renderOrder), so that a record is sent again only for the pages that reach
 * past their window, not once for each view it is in. Those forgotten first
 * are the records of the windows gone by, which no task to come shows but a
 * base id's other versions; then those of the farthest windows ahead, which
 * the large pages of sparse views had reached. Forgetting every record at
 * once, the records of the window being rendered and those ahead were sent
 * again (and their texts made again, formats/records.ts): the 3x synthetic
 * release's 15,834 records were sent 78,559 times.
 */
export class MatrixRefs {
  private readonly ids = new Map<Matrix, number>();
  /** The record of each number held. */
  private readonly byId = new Map<number, Matrix>();
  /** The take() that last showed each record, by its number. */
  private readonly used: number[] = [];
  private fresh: [number, Matrix][] = [];
  private next = 0;
  private takes = 0;
  /** The earliest window of the records shown since the last take(). */
  private earliest = Infinity;

  /** windowOf: the render order's window a record is in (schedule.ts recordWindows); without it, every record is forgotten at once. */
  constructor(private readonly held = HELD, private readonly windowOf?: (m: Matrix) => number | undefined) {}

  ref(m: Matrix): number {
    let id = this.ids.get(m);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(m, id);
      this.byId.set(id, m);
      this.fresh.push([id, m]);
    }
    this.used[id] = this.takes;
    if (this.windowOf) this.earliest = Math.min(this.earliest, this.windowOf(m) ?? Infinity);
    return id;
  }

  /**
   * The records numbered since the last call, for the workers to hold
   * before the batch that uses them; forget: the numbers of the records the
   * workers should drop once that batch is rendered (null: none).
   */
  take(): { records: [number, Matrix][]; forget: number[] | null } {
    const records = this.fresh;
    this.fresh = [];
    const now = this.takes++;
    const earliest = this.earliest;
    this.earliest = Infinity;
    if (this.ids.size < this.held) return { records, forget: null };
    if (!this.windowOf) {
      const all = [...this.byId.keys()];
      this.ids.clear();
      this.byId.clear();
      return { records, forget: all };
    }
    // Gone by (before the earliest window this batch showed) first, the earliest of them first; then the farthest ahead.
    const windowOf = this.windowOf;
    const order = (m: Matrix) => {
      const w = windowOf(m) ?? Infinity;
      return w < earliest ? w - 2 ** 40 : -w;
    };
    const candidates = [...this.byId].filter(([id]) => this.used[id] !== now).map(([id, m]) => [id, m, order(m)] as const);
    candidates.sort((a, b) => a[2] - b[2] || a[0] - b[0]);
    const forget: number[] = [];
    for (const [id, m] of candidates) {
      if (this.ids.size <= this.held - (this.held >> 4)) break;
      this.ids.delete(m);
      this.byId.delete(id);
      forget.push(id);
    }
    return { records, forget: forget.length > 0 ? forget : null };
  }
}

/** Records a worker holds at most, about (a batch may add its own past it): 6,000 is one shipped release's (5,278 and 4,572). */
export const HELD = 6_000;

/**
 * A task as bytes; a resource's records as their numbers in refs. Its paths stay here: a worker returns
 * its files' bytes in the task's order.
 */
export function encodeTask(task: WireTask, refs: MatrixRefs): Buffer {
  if (task.kind === 'logo') return serialize({ kind: task.kind, pfm: task.pfm });
  const memo = new Map<object, unknown>();
  if (task.kind === 'planned') {
    const p = task.planned;
    const planned = p.kind === 'list' ? { ...p, items: numbers(p.items, refs, memo) } : { ...p, versions: numbers(p.versions, refs, memo) };
    return serialize({ kind: task.kind, formats: task.formats, part: task.part, planned });
  }
  return serialize({ kind: task.kind, formats: task.formats, part: task.part, resources: task.resources.map((r) => ({ ...r, body: tag(r.body, memo), matrices: numbers(r.matrices, refs, memo) })) });
}

/** A task from its bytes (without its paths); matrices: the records by number (sent before, MatrixRefs). */
export function decodeTask(bytes: Uint8Array, matrices: ReadonlyMap<number, Matrix>): WireTask {
  const task = deserialize(bytes) as WireTask;
  const memo = new Map<object, unknown>();
  if (task.kind === 'planned') {
    const p = task.planned;
    if (p.kind === 'list') p.items = records(p.items as unknown as number[], matrices, memo);
    else p.versions = records(p.versions as unknown as number[], matrices, memo);
  } else if (task.kind === 'resource') {
    const seen = new Set<object>();
    for (const r of task.resources) {
      r.body = untag(r.body, seen) as Json;
      r.matrices = records(r.matrices as unknown as number[], matrices, memo);
    }
  }
  return task;
}

/** A resource's records as numbers (the formats of a list page share one array: numbered once). */
function numbers(list: Resource['matrices'], refs: MatrixRefs, memo: Map<object, unknown>): number[] {
  const seen = memo.get(list) as number[] | undefined;
  if (seen) return seen;
  const ids = list.map((m) => refs.ref(m));
  memo.set(list, ids);
  return ids;
}

function records(ids: number[], matrices: ReadonlyMap<number, Matrix>, memo: Map<object, unknown>): Matrix[] {
  const seen = memo.get(ids) as Matrix[] | undefined;
  if (seen) return seen;
  const list = ids.map((id) => {
    const m = matrices.get(id);
    if (m === undefined) throw new Error(`render worker: record ${id} was not sent before the task that shows it`);
    return m;
  });
  memo.set(ids, list);
  return list;
}

/**
 * The value with every PyFloat tagged: a copy of the objects and arrays on the way to a PyFloat, every other
 * object as it is (a list page's results hold none: 78 MB of them in the 2024 release's tasks were copied
 * before they were serialized, for nothing). memo: each object once (shared objects stay shared).
 */
function tag(value: Json, memo: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof PyFloat) return { [TAG]: value.value };
  const seen = memo.get(value);
  if (seen !== undefined) return seen;
  let out: unknown = value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const t = tag(value[i], memo);
      if (t === value[i]) continue;
      if (out === value) out = value.slice();
      (out as unknown[])[i] = t;
    }
  } else {
    for (const k of Object.keys(value)) {
      const t = tag(value[k], memo);
      if (t === value[k]) continue;
      if (out === value) out = { ...value };
      (out as Record<string, unknown>)[k] = t;
    }
  }
  memo.set(value, out);
  return out;
}

/** Every tagged PyFloat made a PyFloat again, in place: the value was just deserialized, and is this task's alone. seen: each object once. */
function untag(value: unknown, seen: Set<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (TAG in value) return new PyFloat((value as Record<string, number>)[TAG]);
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v !== null && typeof v === 'object') value[i] = untag(v, seen);
    }
  } else {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v !== null && typeof v === 'object') o[k] = untag(v, seen);
    }
  }
  return value;
}
