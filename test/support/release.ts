// The shared release, loaded once per test worker, and a renderer for any
// resource in any format, as the build renders it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { loadRelease, readReleaseInfo } from '../../generator/dataset/load.ts';
import type { Matrix, Release, ReleaseInfo } from '../../generator/dataset/types.ts';
import { FORMATS, type FormatId } from '../../generator/formats/registry.ts';
import type { FormatContext, Resource } from '../../generator/formats/types.ts';
import { detailDir, logoPath } from '../../generator/routes/urls.ts';
import { PROJECT_ROOT, dataDir } from './paths.ts';

let cached: Release | undefined;

export function releaseInfo(): ReleaseInfo {
  const file = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
  return readReleaseInfo(readFileSync(file, 'utf8'), (t) => yaml.load(t), file);
}

export function sharedRelease(): Release {
  cached ??= loadRelease(dataDir(), releaseInfo());
  return cached;
}

export function matrix(id: string): Matrix {
  const m = sharedRelease().matrices.find((x) => x.matrixId === id);
  if (!m) throw new Error(`no matrix ${id} in the shared release`);
  return m;
}

export function context(info = releaseInfo()): FormatContext {
  return { release: info, logoHref: logoPath, detailHref: detailDir };
}

/** Renders one matrix's detail resource in a text format. */
export function renderDetail(m: Matrix, format: FormatId, info = releaseInfo()): string {
  const resource: Resource = { kind: 'detail', body: null, matrices: [m], nav: { title: '', dir: '', request: '', formats: [], breadcrumbs: [] } };
  return FORMATS[format].render(resource, context(info));
}
