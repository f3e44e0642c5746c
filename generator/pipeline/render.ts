// What a task renders, the same on the main thread and in a worker: a
// resource in each of its formats, or a logo. The format context is built
// here, in one place, because a worker has to rebuild it from data (a
// function cannot be sent to another thread).
import type { Pfm, ReleaseInfo } from '../dataset/types.ts';
import { FORMATS, type FormatId } from '../formats/registry.ts';
import type { FormatContext, Resource } from '../formats/types.ts';
import { renderLogoSvg } from '../logos/svg.ts';
import { withFormat } from '../plan/resources.ts';
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

/** A task as plain data: the resource as each format's request sees it. */
export type WireTask =
  | { kind: 'resource'; paths: string[]; formats: FormatId[]; resources: Resource[]; /** Which of the plan's parts (a release) renders it. */ part: number }
  | { kind: 'logo'; paths: string[]; pfm: Pfm };

/** Applies what only the main thread can (withFormat calls the list's query-URL function). */
export function resolveTask(task: Task): WireTask {
  if (task.kind === 'logo') return { kind: 'logo', paths: task.paths, pfm: task.matrix.pfm };
  const resource = task.planned.resource; // once: a list page builds it when asked
  return { kind: 'resource', paths: task.paths, formats: [...task.formats], resources: task.formats.map((f) => withFormat(task.planned, f, resource)), part: task.part };
}

/** The content of each of the task's paths, in order; contexts: one per part of the plan (a release). */
export function renderTask(task: WireTask, contexts: readonly FormatContext[]): Content[] {
  if (task.kind === 'logo') return [renderLogoSvg(task.pfm)];
  const context = contexts[task.part];
  if (!context) throw new Error('an OutputPlan needs the release description and the site\'s layout to render resources');
  return task.formats.map((format, i) => FORMATS[format].render(task.resources[i], context));
}
