// Folder sharding, decided per release. Netlify refuses a deploy with more
// than 54,000 entries in one folder. JASPAR 2024 puts 5278 matrix-id and
// 2989 base-id folders into /api/v1/matrix/ and 5278 logos into
// /static/logos/svg/: far below, so its layout stays flat. A release ten
// times larger (≈ 53,000 matrix ids + 30,000 base ids) would not fit, so
// only then the id folders (and, past the limit, the logos) move into shard
// folders named after the id's first four characters:
//   /api/v1/matrix/MA0004.1/          → /api/v1/matrix/MA00/MA0004.1/
//   /api/v1/matrix/MA0004/versions/   → /api/v1/matrix/MA00/MA0004/versions/
//   /static/logos/svg/MA0004.1.svg    → /static/logos/svg/MA00/MA0004.1.svg
// A matrix and its base id share a shard; a shard holds at most 100 base ids
// and their versions. urls.ts asks idSegment()/logoName(); the build chooses
// the layout once per release, before anything is planned, and hands the
// same choice to its render workers (a module setting, so that the URL
// functions keep their one-argument signatures).

/** Netlify refuses deploys with more entries than this in one folder. */
export const MAX_DIR_ENTRIES = 54_000;
/** Room left in a folder for what lives beside the ids (page/, collection/, page_size/, …). */
export const SHARD_HEADROOM = 1_000;

export interface Layout {
  /** Matrix-id and base-id folders under /api/v1/matrix/ in shard folders. */
  idFolders: boolean;
  /** Logo files under /static/logos/svg/ in shard folders. */
  logos: boolean;
}

export const FLAT: Layout = Object.freeze({ idFolders: false, logos: false });
let layout: Layout = FLAT;

/** Shards a folder only when its entries would not fit under the host's limit. */
export function chooseLayout(counts: { matrixIds: number; baseIds: number }, limit = MAX_DIR_ENTRIES): Layout {
  const room = limit - SHARD_HEADROOM;
  return { idFolders: counts.matrixIds + counts.baseIds > room, logos: counts.matrixIds > room };
}

/** Sets the layout every URL function uses from now on (in this thread). */
export function useLayout(next: Layout): void {
  layout = { idFolders: next.idFolders, logos: next.logos };
}

export const currentLayout = (): Layout => ({ ...layout });

/** "MA00" for MA0004.1 and MA0004. */
export const shardOf = (id: string): string => id.slice(0, 4);

/** Path segment(s) of a matrix or base id under /api/v1/matrix/. */
export const idSegment = (id: string): string => (layout.idFolders ? `${shardOf(id)}/${id}` : id);

/** File name (with its shard folder when sharded) of a matrix's logo. */
export const logoName = (matrixId: string): string => (layout.logos ? `${shardOf(matrixId)}/${matrixId}.svg` : `${matrixId}.svg`);
