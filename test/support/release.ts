// The shared release, loaded once per test worker, and a renderer for any
// resource in any format, as the build renders it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { loadRelease } from '../../generator/dataset/curated.ts';
import { readReleaseInfo } from '../../generator/dataset/release-yaml.ts';
import type { Matrix, Release, ReleaseInfo } from '../../generator/dataset/types.ts';
import { FORMATS, type FormatId } from '../../generator/formats/registry.ts';
import type { FormatContext, Resource } from '../../generator/formats/types.ts';
import { FLAT } from '../../generator/routes/shard.ts';
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
  return { release: info, logoHref: (id) => logoPath(FLAT, id), detailHref: (id) => detailDir(FLAT, id) };
}

/** Renders one matrix's detail resource in a text format. */
export function renderDetail(m: Matrix, format: FormatId, info = releaseInfo()): string {
  const resource: Resource = { kind: 'detail', body: null, matrices: [m], nav: { title: '', dir: '', request: '', formats: [], breadcrumbs: [] } };
  return FORMATS[format].render(resource, context(info));
}

/** TRANSFAC `CC` keys whose values come from matrices.csv fields of the same name (provenance.csv columns). */
const CC_FIELDS = ['tax_group', 'tf_family', 'tf_class', 'pubmed_ids', 'uniprot_ids', 'data_type'] as const;
let filled: Map<string, string[]> | undefined;

/** The fields of a matrix that JASPAR's 2024 files left empty and the release fills from JASPAR's
 *  2026 CORE metadata table (tagged J26_core_metadata in provenance.csv, data/jaspar-2024/PROVENANCE.md §3). */
export function filledFrom2026(id: string): string[] {
  if (!filled) {
    filled = new Map();
    const [header, ...rows] = readFileSync(path.join(dataDir(), 'provenance.csv'), 'utf8').trimEnd().split('\n');
    const columns = header.split(',');
    for (const row of rows) {
      // No field of provenance.csv holds a comma inside quotes; a row that did would fail the column count.
      const cells = row.split(',');
      if (cells.length !== columns.length) throw new Error(`provenance.csv: ${cells.length} cells in row ${row}`);
      const fields = columns.filter((c, i) => cells[i].startsWith('J26_core_metadata'));
      if (fields.length > 0) filled.set(cells[0], fields);
    }
  }
  return filled.get(id) ?? [];
}

/** A TRANSFAC record of ours as JASPAR's 2024 export has it: the CC values that the release fills
 *  from 2026 (filledFrom2026) emptied, as the 2024 export prints an empty cell (`CC uniprot_ids:`). */
export function transfacAsIn2024(id: string, text: string): string {
  const fields = filledFrom2026(id).filter((f) => (CC_FIELDS as readonly string[]).includes(f));
  return fields.reduce((t, f) => t.replace(new RegExp(`^CC ${f}:.*$`, 'm'), `CC ${f}:`), text);
}
