// Writes the edge handler's indexes (indexes.ts) from the release, at build
// time. Plain JSON without spaces: the handler parses each once per instance.
import type { Release, ReleaseInfo } from '../dataset/types.ts';
import { hasSites } from '../dataset/digest.ts';
import type { Layout } from '../routes/shard.ts';
import type { LinkStyle } from '../routes/urls.ts';
import { filterValues, listOrder } from '../plan/views.ts';
import { INDEX_PATH, INDEX_VERSION, MATRICES_PATH, type EdgeIndex, type EdgeMatrices, type Unmirrored } from './indexes.ts';

/** [output path (relative), content] of each index file; `compact`: the build leaves out what the handler renders (render-missing.ts). */
export function edgeIndexFiles(release: Release, base: string, layout: Layout, { compact = false, releases = [], elsewhere = {}, unmirrored = [], links = 'query' }: {
  /** How the build's bodies link (routes/urls.ts LinkStyle): the handler renders its bodies alike. */
  links?: LinkStyle;
  /** The release's collections the mirror does not hold (unmirroredCollections). */
  unmirrored?: Unmirrored[];
  compact?: boolean;
  /** Every release of the site, the path its API lives under ("" for the default one) and what /api/v1/releases/ says of it. */
  releases?: { info: ReleaseInfo; prefix: string; held: { info: ReleaseInfo; matrices: number; matrixUrl?: string } }[];
  /** Ids (matrix and base ids) only other releases have, answered from their files at the root: id → year. */
  elsewhere?: Record<string, number>;
} = {}): [string, string][] {
  const ordered = listOrder(release.matrices);
  const index: EdgeIndex = {
    version: INDEX_VERSION,
    base,
    // What the formats print of the release; where its older versions come from is the build's business (an absolute path).
    release: { ...release.info, olderVersions: null },
    // Its fields in one order, however the caller spelled the layout: the index bytes depend on the layout only.
    layout: { idFolders: layout.idFolders, logos: layout.logos, shard: layout.shard },
    ...(compact ? { compact: true as const } : {}),
    // Only a path-style build says so: a default build's index keeps its bytes.
    ...(links === 'path' ? { links } : {}),
    filterValues: filterValues(release),
    ...(releases.length > 1 ? { releases: releases.map((r) => ({ year: r.info.year, name: r.info.name, prefix: r.prefix, held: { ...r.held, info: { ...r.held.info, olderVersions: null } } })), elsewhere } : {}),
    ...(unmirrored.length > 0 ? { unmirrored } : {}),
    rows: ordered.map((m) => [
      m.matrixId, m.name, m.collection, m.baseId, m.version, m.taxGroup, m.tfClass, m.tfFamily, m.dataType,
      m.species.map((s) => s.taxId), hasSites(m) ? 1 : 0, m.row,
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

/**
 * The collections of a release that the mirror does not hold, with the
 * answer a request for one gets: JASPAR 2026's UNVALIDATED collection is not
 * public, and release 2024 of the same site has one.
 */
export function unmirroredCollections(release: Release, others: readonly { release: Release; query: string }[]): Unmirrored[] {
  return release.info.collections.filter((c) => !c.mirrored).map((c) => {
    const having = others.filter((o) => o.release.matrices.some((m) => m.collection === c.name));
    const prefixes = new Set(having.flatMap((o) => o.release.matrices.filter((m) => m.collection === c.name).map((m) => m.baseId.slice(0, 2))));
    const elsewhere = having.length > 0 ? ` ${having.map((o) => `${o.release.info.name} has one here (${o.query})`).join('; ')}.` : '';
    return {
      collection: c.name,
      detail: `${release.info.name}'s ${c.name} collection is not mirrored: its files are ${c.status === 'not published' ? 'not published by JASPAR' : c.status}.${elsewhere}`,
      idPrefixes: [...prefixes].sort(),
    };
  });
}
