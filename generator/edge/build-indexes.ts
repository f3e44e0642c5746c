// Writes the edge handler's indexes (indexes.ts) from the release, at build
// time. Plain JSON without spaces: the handler parses each once per instance.
import type { Release, ReleaseInfo } from '../dataset/types.ts';
import type { Layout } from '../routes/shard.ts';
import { filterValues, listOrder } from '../plan/views.ts';
import { INDEX_PATH, INDEX_VERSION, MATRICES_PATH, type EdgeIndex, type EdgeMatrices } from './indexes.ts';

/** [output path (relative), content] of each index file; `compact`: the build leaves out what the handler renders (render-missing.ts). */
export function edgeIndexFiles(release: Release, base: string, layout: Layout, { compact = false, releases = [], elsewhere = {} }: {
  compact?: boolean;
  /** Every release of the site and the path its API lives under ("" for this one): the default release's index only. */
  releases?: { info: ReleaseInfo; prefix: string }[];
  /** Ids (matrix and base ids) only other releases have, answered from their files at the root: id → year. */
  elsewhere?: Record<string, number>;
} = {}): [string, string][] {
  const ordered = listOrder(release.matrices);
  const index: EdgeIndex = {
    version: INDEX_VERSION,
    base,
    release: release.info,
    // Its fields in one order, however the caller spelled the layout: the index bytes depend on the layout only.
    layout: { idFolders: layout.idFolders, logos: layout.logos, shard: layout.shard },
    ...(compact ? { compact: true as const } : {}),
    filterValues: filterValues(release),
    ...(releases.length > 1 ? { releases: releases.map((r) => ({ year: r.info.year, name: r.info.name, prefix: r.prefix })), elsewhere } : {}),
    rows: ordered.map((m) => [
      m.matrixId, m.name, m.collection, m.baseId, m.version, m.taxGroup, m.tfClass, m.tfFamily, m.dataType,
      m.species.map((s) => s.taxId), m.sites !== null ? 1 : 0, m.row,
    ]),
  };
  const matrices: EdgeMatrices = {
    version: INDEX_VERSION,
    rows: ordered.map((m) => [m.pfm, m.species, m.uniprotIds, m.pubmedIds, m.source, m.comment]),
  };
  return [
    [INDEX_PATH.slice(1), `${JSON.stringify(index)}\n`],
    [MATRICES_PATH.slice(1), `${JSON.stringify(matrices)}\n`],
  ];
}
