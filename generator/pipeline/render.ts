// What a task renders, the same on the main thread and in a worker: a
// resource in each of its formats, or a logo. The format context is built
// here, in one place, because a worker has to rebuild it from data (a
// function cannot be sent to another thread).
import type { Matrix, Pfm, ReleaseInfo } from '../dataset/types.ts';
import { FORMATS, type FormatId } from '../formats/registry.ts';
import { PyFloat, type FormatContext, type Json, type Resource } from '../formats/types.ts';
import { renderLogoSvg } from '../logos/svg.ts';
import { plannedFromWire, withFormat, type PlannedResource, type PlannedWire } from '../plan/resources.ts';
import type { Layout } from '../routes/shard.ts';
import { detailDir, logoPath, pageHref } from '../routes/urls.ts';
import type { Content, Task } from './output-plan.ts';

/** What the formats know of the site: the release, and the site's layout for the links pages make to logos and matrices. */
export function formatContext(release: ReleaseInfo, layout: Layout): FormatContext {
  return {
    release,
    logoHref: (matrixId) => logoPath(layout, matrixId),
    detailHref: (matrixId) => pageHref(detailDir(layout, matrixId)),
  };
}

/**
 * A task as plain data: the resource as each format's request sees it; or, for a list page or a base
 * id's resource, what it is built from (PlannedResource.wire), built where it is rendered. On the main
 * thread, the resources of the 2024 and 2026 releases' tasks were built and serialized for the workers
 * (v8.serialize 5.7 s, GC 5.2 s there; deserialize 2.6 s, GC 5.5 s in each worker; at load).
 */
export type WireTask =
  | { kind: 'resource'; paths: string[]; formats: FormatId[]; resources: Resource[]; /** Which of the plan's parts (a release) renders it. */ part: number }
  | { kind: 'planned'; paths: string[]; formats: FormatId[]; planned: PlannedWire; part: number }
  | { kind: 'logo'; paths: string[]; pfm: Pfm };

/** Applies what only the main thread can (withFormat calls the list's query-URL function), or describes the resource. */
export function resolveTask(task: Task): WireTask {
  if (task.kind === 'logo') return { kind: 'logo', paths: task.paths, pfm: task.matrix.pfm };
  const planned = task.planned.wire;
  if (planned !== undefined) return { kind: 'planned', paths: task.paths, formats: [...task.formats], planned, part: task.part };
  return { kind: 'resource', paths: task.paths, formats: [...task.formats], resources: resourcesOf(task.planned, task.formats), part: task.part };
}

/** The resource as each format's request sees it. */
function resourcesOf(planned: PlannedResource, formats: readonly FormatId[]): Resource[] {
  // Once each: a list page builds them when asked.
  const resource = planned.resource;
  const neighbours = planned.neighbours;
  return formats.map((f) => withFormat(planned, f, resource, neighbours));
}

/** The task with its resources built: a planned one's from what it is built from. */
export function withResources(task: WireTask): Exclude<WireTask, { kind: 'planned' }> {
  if (task.kind !== 'planned') return task;
  const { planned, ...rest } = task;
  return { ...rest, kind: 'resource', resources: resourcesOf(plannedFromWire(planned), task.formats) };
}

/** The content of each of the task's paths, in order; contexts: one per part of the plan (a release). */
export function renderTask(wired: WireTask, contexts: readonly FormatContext[]): Content[] {
  const task = withResources(wired);
  if (task.kind === 'logo') return [renderLogoSvg(task.pfm)];
  const context = contexts[task.part];
  if (!context) throw new Error('an OutputPlan needs the release description and the site\'s layout to render resources');
  const texts = sameDetail(task, context);
  return task.formats.map((format, i) => {
    if (texts === null || format === 'api') return FORMATS[format].render(task.resources[i], context);
    let text = texts.get(format);
    if (text === undefined) texts.set(format, (text = FORMATS[format].render(task.resources[i], context)));
    return text;
  });
}

/**
 * A base id answers with its latest version (plan/resources.ts planBaseId),
 * and its task comes right after that version's: in every format but api
 * (whose page names its own folder and request) its files are that
 * version's bytes, one in nine files of a release's details. The texts of
 * the last detail task rendered are kept, and the next detail task takes
 * them instead of rendering again when every format but api reads the same
 * there: the same record object (a worker holds each record as one object,
 * pipeline/wire.ts), the same context (release and layout) and an equal JSON
 * body. A base id whose task lands in another batch or worker is rendered,
 * to the same bytes.
 */
let lastDetail: { record: Matrix; context: FormatContext; body: Json; texts: Map<FormatId, string> } | null = null;

function sameDetail(task: Extract<WireTask, { kind: 'resource' }>, context: FormatContext): Map<FormatId, string> | null {
  const first = task.resources[0];
  if (first === undefined || first.kind !== 'detail' || first.matrices.length !== 1) return null;
  if (task.resources.some((r) => r.body !== first.body || r.matrices !== first.matrices)) return null;
  const record = first.matrices[0];
  if (lastDetail === null || lastDetail.record !== record || lastDetail.context !== context || !sameJson(lastDetail.body, first.body)) lastDetail = { record, context, body: first.body, texts: new Map() };
  return lastDetail.texts;
}

/** Equal JSON values (a PyFloat equal to a PyFloat of the same value, keys in the same order: what the formats print). */
function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof PyFloat || b instanceof PyFloat) return a instanceof PyFloat && b instanceof PyFloat && Object.is(a.value, b.value);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson(a[k], b[k]));
}
