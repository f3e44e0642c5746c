// Tasks across threads (pipeline/wire.ts): a task's records travel by
// number, each sent once; what a worker decodes renders the same bytes as
// the task rendered where it was planned.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../generator/dataset/types.ts';
import { renderTask, withResources, type WireTask } from '../../generator/pipeline/render.ts';
import { MatrixRefs, decodeTask, encodeTask } from '../../generator/pipeline/wire.ts';
import { makeRelease } from '../support/fixtures.ts';
import { plannedTasks } from '../support/planned-tasks.ts';

const release = makeRelease();
afterAll(() => rmSync(release, { recursive: true, force: true }));

const tasks = () => plannedTasks(release);

/** The records a task shows, in each of its formats. */
const shownBy = (t: WireTask): Matrix[] => {
  const built = withResources(t);
  return built.kind === 'resource' ? built.resources.flatMap((r) => r.matrices) : [];
};

/** What a worker holds after the records messages it was sent (worker.ts). */
const held = (sent: [number, Matrix][][]) => {
  const matrices = new Map<number, Matrix>();
  for (const records of sent) for (const [id, m] of records) matrices.set(id, structuredClone(m));
  return matrices;
};

describe('tasks on the wire', () => {
  it('render the same bytes after encoding, each record sent once for all the tasks that show it', () => {
    const { wire, contexts } = tasks();
    const refs = new MatrixRefs();
    const sent: [number, Matrix][][] = [];
    const decoded: WireTask[] = [];
    for (const task of wire) {
      const bytes = encodeTask(task, refs);
      const { records, forget } = refs.take(); // sent before the batch (schedule.ts dispatch)
      expect(forget).toBe(null);
      sent.push(records);
      decoded.push(decodeTask(bytes, held(sent)));
    }
    const ids = sent.flat().map(([id]) => id);
    const shown = new Set(wire.flatMap(shownBy));
    // Every record shown is sent, once; list pages show records that matrix pages show too.
    expect(ids.length).toBe(shown.size);
    expect(new Set(ids).size).toBe(ids.length);
    const showings = wire.reduce((n, t) => n + shownBy(t).length, 0);
    expect(showings).toBeGreaterThan(2 * shown.size);
    for (const [i, task] of wire.entries()) expect(renderTask(decoded[i], contexts)).toEqual(renderTask(task, contexts));
  });

  it('hold a bounded number of records: past it, the workers forget them after the batch and get them again when shown', () => {
    const { wire, contexts } = tasks();
    const limit = 3;
    const refs = new MatrixRefs(limit);
    // One worker, batches of four tasks, as worker.ts takes its messages.
    const worker = new Map<number, Matrix>();
    let most = 0;
    let sends = 0;
    let forgotten = 0;
    for (let i = 0; i < wire.length; i += 4) {
      const batch = wire.slice(i, i + 4);
      const bytes = batch.map((t) => encodeTask(t, refs));
      const { records, forget } = refs.take();
      for (const [id, m] of records) worker.set(id, structuredClone(m));
      sends += records.length;
      most = Math.max(most, worker.size);
      batch.forEach((task, j) => expect(renderTask(decodeTask(bytes[j], worker), contexts)).toEqual(renderTask(task, contexts)));
      if (forget) {
        // Without the render order's windows, every record held is forgotten.
        expect(new Set(forget)).toEqual(new Set(worker.keys()));
        for (const id of forget) worker.delete(id);
        forgotten++;
      }
    }
    const shown = new Set(wire.flatMap(shownBy));
    expect(forgotten).toBeGreaterThan(0);
    expect(sends).toBeGreaterThan(shown.size);
    // The limit, plus what one batch of four tasks adds past it (the fixture's largest page shows all its records).
    expect(most).toBeLessThan(limit + 4 * shown.size);
    expect(most).toBeLessThan(sends);
  });

  it('forget the records of the windows gone by first, then the farthest ahead, never those the batch shows, keeping most of them', () => {
    // Records by their window of the render order (schedule.ts recordWindows): 0-9 in window 0, 10-19 in 1, …
    const records = Array.from({ length: 40 }, (_, i) => ({ matrixId: `R${i}` }) as unknown as Matrix);
    const windowOf = (m: Matrix) => Math.floor(Number(m.matrixId.slice(1)) / 10);
    const refs = new MatrixRefs(17, windowOf);
    const worker = new Map<number, Matrix>();
    const batch = (shown: number[]) => {
      const ids = shown.map((i) => refs.ref(records[i]));
      const { records: sent, forget } = refs.take();
      for (const [id, m] of sent) worker.set(id, m);
      // Every record the batch shows is held when it is rendered.
      ids.forEach((id, k) => expect(worker.get(id)).toBe(records[shown[k]]));
      for (const id of forget ?? []) worker.delete(id);
      return new Set([...worker.values()].map((m) => Number(m.matrixId.slice(1))));
    };
    // Window 0's pages, one of which reaches far ahead (30-35), then window 1's.
    batch([0, 1, 2, 3, 4, 5, 30, 31, 32, 33, 34, 35]);
    let held = batch([6, 7, 8, 9]);
    expect(held.size).toBe(16);
    held = batch([10, 11, 12]);
    // 19 held, past 17: down to 16, those of window 0 (gone by) first; the farthest ahead and the batch's stay.
    expect(held.size).toBe(16);
    expect([...held].filter((i) => i < 10)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    for (const i of [10, 11, 12, 30, 31, 32, 33, 34, 35]) expect(held.has(i)).toBe(true);
    // Window 3 reached: 30-35 were not sent again.
    const before = refs.take().records.length;
    expect(before).toBe(0);
    batch([30, 31, 32, 33]);
    expect(refs.take().records.length).toBe(0);
    // None gone by (all in window 1 or after): the farthest ahead go.
    const few = new MatrixRefs(4, windowOf);
    const ids = [10, 20, 30, 35].map((i) => few.ref(records[i]));
    expect(few.take().forget).toBe(null);
    for (const i of [11, 12]) few.ref(records[i]);
    expect(few.take().forget).toEqual([ids[2], ids[3]]);
  });

  it('keep one records array for a resource\'s formats (a list page\'s nine formats show the same records)', () => {
    const { built } = tasks();
    const list = built.find((t) => t.kind === 'resource' && t.resources.length > 1 && t.resources[0].matrices.length > 1);
    if (list?.kind !== 'resource') throw new Error('the fixture has no list page in several formats');
    const refs = new MatrixRefs();
    const bytes = encodeTask(list, refs);
    const task = decodeTask(bytes, held([refs.take().records]));
    if (task.kind !== 'resource') throw new Error('decoded as a logo');
    expect(task.resources.every((r) => r.matrices === task.resources[0].matrices)).toBe(true);
    expect(task.resources[0].matrices.map((m) => m.matrixId)).toEqual(list.resources[0].matrices.map((m) => m.matrixId));
  });

  it('send a list page and a base id\'s resources as what they are built from: no body, a fraction of the bytes, the same files', () => {
    const { wire, built, contexts } = tasks();
    const planned = wire.flatMap((t, i) => (t.kind === 'planned' ? [i] : []));
    const kinds = new Set(planned.map((i) => (wire[i] as Extract<WireTask, { kind: 'planned' }>).planned.kind));
    expect(kinds).toEqual(new Set(['list', 'base']));
    // Every list page and matrix of the release (the other resources, index lists, travel built).
    expect(built.filter((t) => t.kind === 'resource' && (t.resources[0].kind === 'list' || t.resources[0].kind === 'detail' || t.resources[0].kind === 'versions')).length).toBe(planned.length);
    let described = 0;
    let bodies = 0;
    for (const i of planned) {
      const refs = new MatrixRefs();
      const bytes = encodeTask(wire[i], refs);
      described += bytes.length;
      bodies += encodeTask(built[i], new MatrixRefs()).length;
      const task = decodeTask(bytes, held([refs.take().records]));
      expect(task.kind).toBe('planned');
      expect(renderTask(task, contexts)).toEqual(renderTask(built[i], contexts));
    }
    expect(described).toBeLessThan(bodies / 3);
  });

  it('name the missing record when a task arrives before it', () => {
    const { wire } = tasks();
    const shows = wire.find((t) => shownBy(t).length > 0)!;
    const bytes = encodeTask(shows, new MatrixRefs());
    expect(() => decodeTask(bytes, new Map())).toThrow(/record 0 was not sent before the task that shows it/);
  });
});
