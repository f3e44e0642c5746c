// What a task renders (pipeline/render.ts) with the texts it keeps: a base
// id's files taken from its latest version's task just before, a record's
// text in a format made once (formats/records.ts). Kept texts never stand
// in for another record, body or release.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FORMATS } from '../../generator/formats/registry.ts';
import type { Json, Resource } from '../../generator/formats/types.ts';
import { renderTask, type WireTask } from '../../generator/pipeline/render.ts';
import { makeRelease } from '../support/fixtures.ts';
import { plannedTasks } from '../support/planned-tasks.ts';

const release = makeRelease();
afterAll(() => rmSync(release, { recursive: true, force: true }));

/** The tasks with their resources built, as a worker renders them. */
const tasks = () => {
  const { built, contexts } = plannedTasks(release);
  return { wire: built, contexts };
};

type ResourceTask = Extract<WireTask, { kind: 'resource' }>;
const isDetail = (t: WireTask): t is ResourceTask => t.kind === 'resource' && t.resources[0].kind === 'detail';
/** A base id's task: a detail whose files lie in the base id's own folder ("…/MA0001/index.json"). */
const isBaseId = (t: WireTask) => isDetail(t) && /\/MA\d+\/index\.json$/.test(t.paths[t.formats.indexOf('json')]);

describe('rendering with kept texts', () => {
  it("a base id's files are its latest version's in every format but api, and the same bytes as rendered on their own", () => {
    const { wire, contexts } = tasks();
    const at = wire.findIndex(isBaseId);
    expect(at).toBeGreaterThan(0);
    const [latest, base] = [wire[at - 1] as ResourceTask, wire[at] as ResourceTask];
    expect(latest.resources[0].matrices[0]).toBe(base.resources[0].matrices[0]);
    renderTask(latest, contexts);
    const after = renderTask(base, contexts);
    // Alone: right after another record's task.
    renderTask(wire.find((t) => isDetail(t) && t.resources[0].matrices[0] !== base.resources[0].matrices[0])!, contexts);
    const alone = renderTask(base, contexts);
    expect(after).toEqual(alone);
    const own = renderTask(latest, contexts);
    for (const [i, format] of base.formats.entries()) {
      if (format === 'api') expect(after[i]).not.toEqual(own[i]);
      else expect(after[i], format).toEqual(own[i]);
    }
  });

  it('a detail task of the same record with another body renders its own body', () => {
    const { wire, contexts } = tasks();
    const at = wire.findIndex(isBaseId);
    const [latest, base] = [wire[at - 1] as ResourceTask, wire[at] as ResourceTask];
    // The same record object, a body that says otherwise (as another base URL would).
    const body = { ...(base.resources[0].body as Record<string, Json>), name: 'Not the record name' };
    const other: ResourceTask = { ...base, resources: base.resources.map((r): Resource => ({ ...r, body })) };
    renderTask(latest, contexts);
    const out = renderTask(other, contexts);
    const json = out[other.formats.indexOf('json')] as string;
    expect(JSON.parse(json).name).toBe('Not the record name');
  });

  it("a record's text is kept per record and release: another release's description prints its own", () => {
    const { wire, contexts } = tasks();
    const detail = wire.find(isDetail)! as ResourceTask;
    const resource = detail.resources[detail.formats.indexOf('meme')];
    const context = contexts[detail.part];
    const elsewhere = { ...context, release: { ...context.release, memeUrl: 'https://example.org/meme/{matrix_id}' } };
    const first = FORMATS.meme.render(resource, context);
    const second = FORMATS.meme.render(resource, elsewhere);
    expect(second).toContain(`URL https://example.org/meme/${resource.matrices[0].matrixId}\n`);
    expect(first).not.toContain('example.org');
    expect(FORMATS.meme.render(resource, context)).toBe(first);
  });
});
