// The order the tasks are rendered in (pipeline/schedule.ts renderOrder):
// through the records once, a window of them in list order at a time, so
// that the records the workers hold (wire.ts MatrixRefs, about HELD of them)
// serve every view's pages over them; in plan order each list view went
// through every record again.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { planSite } from '../../generator/build.ts';
import { resolveTask } from '../../generator/pipeline/render.ts';
import { recordWindows, renderOrder } from '../../generator/pipeline/schedule.ts';
import { MatrixRefs, encodeTask } from '../../generator/pipeline/wire.ts';
import { makeRelease } from '../support/fixtures.ts';

const release = makeRelease();
afterAll(() => rmSync(release, { recursive: true, force: true }));

const planned = () => planSite({ dataDir: release, outDir: '/nonexistent-out', baseUrl: 'http://localhost:8080' }).plan;

/** Records sent to the workers for the tasks in this order, in batches of four, the workers holding about `held`. */
function recordsSent(order: number[], held: number, windows = false): number {
  const { tasks } = planned();
  const windowOf = windows ? recordWindows(tasks, held / 2) : null;
  const refs = new MatrixRefs(held, windowOf ? (m) => windowOf.get(m) : undefined);
  let sent = 0;
  for (let i = 0; i < order.length; i += 4) {
    for (const t of order.slice(i, i + 4)) encodeTask(resolveTask(tasks[t]!), refs);
    sent += refs.take().records.length;
  }
  return sent;
}

describe('the render order', () => {
  it('is every task once: those that show no record first, in plan order, then by the window of the first record shown in list order, in plan order within it', () => {
    const { tasks } = planned();
    const window = 2;
    const order = renderOrder(tasks, window);
    expect([...order].sort((a, b) => a - b)).toEqual([...tasks.keys()]);
    const firsts = order.map((i) => (tasks[i]!.kind === 'resource' ? (tasks[i] as { planned: { first?: { name: string; row: number } } }).planned.first : undefined));
    const without = firsts.findIndex((f) => f !== undefined);
    expect(without).toBeGreaterThan(0); // logos show no record
    expect(firsts.slice(without).every((f) => f !== undefined)).toBe(true);
    expect(order.slice(0, without)).toEqual([...order.slice(0, without)].sort((a, b) => a - b));
    // The records' list order: by name, then row.
    const ranked = [...new Set(firsts.slice(without))].sort((x, y) => (x!.name < y!.name ? -1 : x!.name > y!.name ? 1 : 0) || x!.row - y!.row);
    const windows = firsts.slice(without).map((f) => Math.floor(ranked.indexOf(f) / window));
    expect(windows).toEqual([...windows].sort((a, b) => a - b));
    expect(windows.at(-1)).toBeGreaterThan(0);
    const rest = order.slice(without);
    for (let i = 1; i < rest.length; i++) if (windows[i] === windows[i - 1]) expect(rest[i]).toBeGreaterThan(rest[i - 1]);
    // Every list page, detail and sites resource says its first record.
    expect(tasks.filter((t) => t!.kind === 'resource' && t!.planned.resource.matrices.length > 0).every((t) => t!.kind === 'resource' && t!.planned.first === t!.planned.resource.matrices[0])).toBe(true);
  });

  it('sends fewer records to workers that hold few of them than the plan order does', () => {
    const { tasks } = planned();
    const held = 4;
    const inOrder = recordsSent(renderOrder(tasks, held / 2), held);
    const inPlan = recordsSent([...tasks.keys()], held);
    expect(inOrder).toBeLessThan(inPlan);
    // Forgetting the records of the windows gone by first, not every record at once.
    expect(recordsSent(renderOrder(tasks, held / 2), held, true)).toBeLessThan(inOrder);
  });
});
