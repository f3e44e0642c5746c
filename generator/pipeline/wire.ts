// Tasks across threads. v8.serialize keeps shared objects shared (a list
// page's results are serialized once for its nine formats) but not classes:
// PyFloat (a JSON number printed as a Python float) travels as a tagged
// object and is made a PyFloat again on the other side. The serialized bytes
// are also what a task's cache key is computed from (cache.ts).
import { deserialize, serialize } from 'node:v8';
import { PyFloat, type Json } from '../formats/types.ts';
import type { WireTask } from './render.ts';

const TAG = '\u0000PyFloat';

export function encodeTask(task: WireTask): Buffer {
  if (task.kind === 'logo') return serialize(task);
  const memo = new Map<object, unknown>();
  return serialize({ ...task, resources: task.resources.map((r) => ({ ...r, body: tag(r.body, memo) })) });
}

export function decodeTask(bytes: Uint8Array): WireTask {
  const task = deserialize(bytes) as WireTask;
  if (task.kind === 'resource') {
    const memo = new Map<object, unknown>();
    for (const r of task.resources) r.body = untag(r.body, memo) as Json;
  }
  return task;
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
