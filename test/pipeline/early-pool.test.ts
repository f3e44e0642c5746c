// Render workers started during the plan (pipeline/schedule.ts startRenderPool, ScheduleOptions early: build.ts
// starts them once the plan knows records were added or removed): the render takes them where it would start
// its own and writes what it writes without them; a render that needs no workers closes them unused.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { planSite, type BuildOptions } from '../../generator/build.ts';
import { renderPlan, startRenderPool, type ScheduleSink } from '../../generator/pipeline/schedule.ts';
import type { WriteContent } from '../../generator/pipeline/output-plan.ts';
import { makeRelease } from '../support/fixtures.ts';

const data = makeRelease();
afterAll(() => rmSync(data, { recursive: true, force: true }));
const options: BuildOptions = { dataDir: data, outDir: '/nonexistent-out', baseUrl: 'http://localhost:8080' };

/** A sink that keeps every file's text. */
function sink() {
  const files = new Map<string, string>();
  const made: ScheduleSink = {
    key: () => {},
    reuse: () => false,
    file: (rel: string, content: WriteContent) => {
      files.set(rel, typeof content === 'string' || Buffer.isBuffer(content) ? content.toString() : [...content.pieces()].join(''));
    },
  };
  return { files, sink: made };
}

describe('render workers started during the plan', () => {
  it('render the tasks where the render would start its own, to the same files; are closed unused when it needs none', async () => {
    const here = sink();
    await renderPlan(planSite(options).plan, { workers: 0 }, here.sink);
    expect(here.files.size).toBeGreaterThan(100);

    const early = startRenderPool(undefined, 1);
    const run = vi.spyOn(early, 'run');
    const close = vi.spyOn(early, 'close');
    const taken = sink();
    await renderPlan(planSite(options).plan, { workers: 1, early }, taken.sink);
    expect(run).toHaveBeenCalled();
    expect(close).toHaveBeenCalled();
    expect(taken.files).toEqual(here.files);

    const unused = startRenderPool(undefined, 1);
    const runUnused = vi.spyOn(unused, 'run');
    const closeUnused = vi.spyOn(unused, 'close');
    const alone = sink();
    await renderPlan(planSite(options).plan, { workers: 0, early: unused }, alone.sink);
    expect(runUnused).not.toHaveBeenCalled();
    expect(closeUnused).toHaveBeenCalled();
    expect(alone.files).toEqual(here.files);
  }, 60_000);
});
