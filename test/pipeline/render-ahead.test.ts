// Tasks rendered ahead (pipeline/schedule.ts renderAhead), while the folder look keeps the writer closed: the
// tasks whose key is not the previous build's are rendered, the others only keyed, and the render that takes
// them hands the sink the same files, and renders and reuses the same tasks, as a render without them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planSite, writeSite, type BuildOptions } from '../../generator/build.ts';
import { renderAhead, renderPlan, type Ahead, type ScheduleSink } from '../../generator/pipeline/schedule.ts';
import type { WriteContent } from '../../generator/pipeline/output-plan.ts';
import { readState } from '../../generator/write/state.ts';
import { addToFirstCount, makeRelease } from '../support/fixtures.ts';

const SALT = 'salt';
const data = makeRelease();
const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-ahead-'));
afterAll(() => {
  rmSync(data, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});
const options: BuildOptions = { dataDir: data, outDir: path.join(root, 'public'), baseUrl: 'http://localhost:8080' };

/** A sink that reuses a task whose key is the previous build's, and keeps every file's text. */
function sink(previous: (first: string) => string | undefined) {
  const files = new Map<string, string>();
  const made: ScheduleSink = {
    key: () => {},
    reuse: (paths, key) => previous(paths[0]) === key,
    file: (rel: string, content: WriteContent) => {
      files.set(rel, typeof content === 'string' || Buffer.isBuffer(content) ? content.toString() : [...content.pieces()].join(''));
    },
  };
  return { files, sink: made };
}

describe('tasks rendered ahead', () => {
  it('renders the tasks whose key changed, and the render that takes them writes what it writes without them', async () => {
    await writeSite(planSite(options).plan, options.outDir, { salt: SALT, workers: 0 });
    const state = readState(options.outDir)!;
    const previous = (first: string) => state.keys.get(first);
    addToFirstCount(path.join(data, 'matrices', 'MA0004.1.jaspar'), 1);

    const without = sink(previous);
    const plain = await renderPlan(planSite(options).plan, { salt: SALT, workers: 0 }, without.sink);
    expect(plain.rendered).toBeGreaterThan(0);
    expect(plain.reused).toBeGreaterThan(plain.rendered);

    // Ahead to the end (the look never done), then cut short after a few tasks.
    for (const stopAfter of [Infinity, 5]) {
      const plan = planSite(options).plan;
      const tasks = plan.tasks.length;
      let asked = 0;
      const ahead: Ahead = await renderAhead(plan, SALT, previous, () => ++asked <= stopAfter);
      const early = [...ahead.values()].filter((a) => a.contents !== undefined).length;
      if (stopAfter === Infinity) {
        expect(ahead.size).toBe(tasks);
        expect(early).toBe(plain.rendered);
      } else {
        expect(ahead.size).toBe(stopAfter);
      }
      const taken = sink(previous);
      const counts = await renderPlan(plan, { salt: SALT, workers: 0, ahead }, taken.sink);
      expect(counts).toEqual(plain);
      expect(taken.files).toEqual(without.files);
    }
  });
});
