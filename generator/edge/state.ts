// The release as the edge handler holds it: the build's indexes (indexes.ts),
// read through the site once per handler (createHandler) and release, and
// what is derived from them when first needed (the rest of every matrix, an
// index list's items). Nothing here lives in a module: each handler has its
// own, so that two handlers (tests, a cold-start measurement) share nothing.
import type { FormatContext, Json } from '../formats/types.ts';
import { detailDir, logoPath, pageHref } from '../routes/urls.ts';
import { INDEX_PATH, MATRICES_PATH, parseIndex, parseMatrices, recordsOf, type EdgeIndex, type EdgeMatrices, type Record_ } from './indexes.ts';
import type { CompactMemo } from './render-missing.ts';
import type { Sorts } from './select.ts';
import type { EdgeSite } from './site.ts';

export interface Loaded {
  index: EdgeIndex;
  records: Record_[];
  byId: Map<string, Record_>;
  /** Base ids of the release's matrices. */
  baseIds: Set<string>;
  context: FormatContext;
  /** Counts and the rest, read when first needed. */
  matrices?: Promise<EdgeMatrices>;
  /** Items of each index list (endpoint → items), read when first asked for (index-lists.ts). */
  indexItems: Map<string, Promise<Json[]>>;
  /** The whole list sorted by each order asked (select.ts). */
  sorts: Sorts;
  /** What a compact build's rendering derives from the indexes (render-missing.ts). */
  compact: CompactMemo;
}

/** One handler's releases, each read at the first request that needs it. */
export interface Releases {
  /** The indexes of the site's release; rejects when they cannot be read (tried again by the next request). */
  load(site: EdgeSite): Promise<Loaded>;
  /** The indexes; null for a site built without them (or one that cannot be read): the static files answer, as without the handler. */
  loadedOrNull(site: EdgeSite): Promise<Loaded | null>;
}

export function releases(): Releases {
  /** Each release's indexes by the path its site lives under ("" for the default release). */
  const loaded = new Map<string, Promise<Loaded>>();

  const load = (site: EdgeSite): Promise<Loaded> => {
    const key = site.prefix ?? '';
    let state = loaded.get(key);
    if (state) return state;
    state = (async () => {
      const text = await site.readFile(INDEX_PATH);
      if (text === null) throw new Error(`${INDEX_PATH} is missing: the site was built without the edge indexes`);
      const index = parseIndex(text);
      const records = recordsOf(index);
      return {
        index,
        records,
        byId: new Map(records.map((r) => [r.matrixId, r])),
        baseIds: new Set(records.map((r) => r.baseId)),
        // The site's layout comes with its index: the handler names files as the build that wrote them did.
        context: { release: index.release, logoHref: (id: string) => logoPath(index.layout, id), detailHref: (id: string) => pageHref(detailDir(index.layout, id)) },
        indexItems: new Map(),
        compact: {},
        sorts: new Map(),
      };
    })().catch((error: unknown) => {
      loaded.delete(key); // a failed read is tried again by the next request
      throw error;
    });
    loaded.set(key, state);
    return state;
  };

  return {
    load,
    async loadedOrNull(site) {
      try {
        return await load(site);
      } catch (e) {
        console.error(`edge handler: ${(e as Error).message}; the static files answer`);
        return null;
      }
    },
  };
}

/** The rest of every matrix (matrices.json), read once per release when first needed. */
export function matricesOf(state: Loaded, site: EdgeSite): Promise<EdgeMatrices> {
  state.matrices ??= (async () => {
    const text = await site.readFile(MATRICES_PATH);
    if (text === null) throw new Error(`${MATRICES_PATH} is missing: the site was built without the edge indexes`);
    return parseMatrices(text, state.records.length);
  })().catch((error: unknown) => {
    state.matrices = undefined;
    throw error;
  });
  return state.matrices;
}
