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
 * 1,495 MB).
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

/** A task as bytes; a resource's records as their numbers in refs. */
export function encodeTask(task: WireTask, refs: MatrixRefs): Buffer {
  if (task.kind === 'logo') return serialize(task);
  const memo = new Map<object, unknown>();
  return serialize({ ...task, resources: task.resources.map((r) => ({ ...r, body: tag(r.body, memo), matrices: numbers(r.matrices, refs, memo) })) });
}

/** A task from its bytes; matrices: the records by number (sent before, MatrixRefs). */
export function decodeTask(bytes: Uint8Array, matrices: ReadonlyMap<number, Matrix>): WireTask {
  const task = deserialize(bytes) as WireTask;
  if (task.kind === 'resource') {
    const memo = new Map<object, unknown>();
    for (const r of task.resources) {
      r.body = untag(r.body, memo) as Json;
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

function tag(value: Json, memo: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof PyFloat) return { [TAG]: value.value };
  const seen = memo.get(value);
  if (seen !== undefined) return seen;
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((v) => tag(v, memo));
  } else {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(value)) o[k] = tag(value[k], memo);
    out = o;
  }
  memo.set(value, out);
  return out;
}

function untag(value: unknown, memo: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const seen = memo.get(value);
  if (seen !== undefined) return seen;
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((v) => untag(v, memo));
  } else {
    const o = value as Record<string, unknown>;
    if (TAG in o) {
      out = new PyFloat(o[TAG] as number);
    } else {
      const r: Record<string, unknown> = {};
      for (const k of Object.keys(o)) r[k] = untag(o[k], memo);
      out = r;
    }
  }
  memo.set(value as object, out);
  return out;
}
