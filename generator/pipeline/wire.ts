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
 * The workers hold at most about HELD records: past that, the batch being
 * sent is the last of an epoch, after which the workers forget every record
 * and records are numbered and sent afresh (a 3x synthetic release's 15,834
 * records held by both workers took the build's peak RSS from 1,142 to
 * 1,495 MB). The tasks come a window of records in list order at a time
 * (schedule.ts renderOrder), so that a record is sent again only for the
 * pages that reach past their window, not once for each view it is in.
 */
export class MatrixRefs {
  private readonly ids = new Map<Matrix, number>();
  private fresh: [number, Matrix][] = [];
  private next = 0;

  constructor(private readonly held = HELD) {}

  ref(m: Matrix): number {
    let id = this.ids.get(m);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(m, id);
      this.fresh.push([id, m]);
    }
    return id;
  }

  /**
   * The records numbered since the last call, for the workers to hold
   * before the batch that uses them; forget: whether the workers should drop
   * every record once that batch is rendered (the next batch numbers afresh).
   */
  take(): { records: [number, Matrix][]; forget: boolean } {
    const records = this.fresh;
    this.fresh = [];
    const forget = this.ids.size >= this.held;
    if (forget) this.ids.clear();
    return { records, forget };
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
