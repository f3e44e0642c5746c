// Folder sharding, decided per release. Netlify refuses a deploy with more
// than 54,000 entries in one folder. JASPAR 2024 puts 5278 matrix-id and
// 2989 base-id folders into /api/v1/matrix/ and 5278 logos into
// /static/logos/svg/: far below, so its layout stays flat. A release ten
// times larger (≈ 53,000 matrix ids + 30,000 base ids) would not fit, so
// only then the id folders (and, past the limit, the logos) move into shard
// folders named after the id's first characters, as few as keep every
// shard under the limit (two for the 10x synthetic release: ZA, ZB, ZC):
//   /api/v1/matrix/MA0004.1/          → /api/v1/matrix/MA/MA0004.1/
//   /api/v1/matrix/MA0004/versions/   → /api/v1/matrix/MA/MA0004/versions/
//   /static/logos/svg/MA0004.1.svg    → /static/logos/svg/MA/MA0004.1.svg
// A matrix and its base id share a shard. Few, short shard names matter for
// the hosts: Netlify cannot cut a path segment, so its rules match each
// shard by prefix (/api/v1/matrix/MA* → /api/v1/matrix/MA/MA:splat), one
// set of rules a shard (hosting/rules.ts).
//
// The layout is a value, chosen once per release (build.ts) and passed to
// whoever needs it: every function below and every path function of urls.ts
// that depends on it takes it as a parameter, so that one process can use two
// layouts side by side (a build and the edge handler of another site, tests).
// It travels as data where a function cannot: in the render workers' init
// message (pipeline/pool.ts) and in the edge index (edge/indexes.ts).

/** Netlify refuses deploys with more entries than this in one folder. */
export const MAX_DIR_ENTRIES = 54_000;
/** Room left in a folder for what lives beside the ids (page/, collection/, page_size/, …). */
export const SHARD_HEADROOM = 1_000;

export interface Layout {
  /** Matrix-id and base-id folders under /api/v1/matrix/ in shard folders. */
  idFolders: boolean;
  /** Logo files under /static/logos/svg/ in shard folders. */
  logos: boolean;
  /** Characters of an id that name its shard folder (0: flat). */
  shard: number;
}

export const FLAT: Layout = Object.freeze({ idFolders: false, logos: false, shard: 0 });

/** The ids a layout is chosen for. */
export interface LayoutIds {
  matrixIds: readonly string[];
  baseIds: readonly string[];
}

/** Entries of the fullest shard when ids are cut after `length` characters. */
function fullestShard(ids: readonly string[], length: number): number {
  const counts = new Map<string, number>();
  let max = 0;
  for (const id of ids) {
    const n = (counts.get(id.slice(0, length)) ?? 0) + 1;
    counts.set(id.slice(0, length), n);
    if (n > max) max = n;
  }
  return max;
}

/** Shards a folder only when its entries would not fit under the host's limit; then by the shortest id prefix that fits. */
export function chooseLayout(ids: LayoutIds, limit = MAX_DIR_ENTRIES): Layout {
  const room = limit - SHARD_HEADROOM;
  const idFolders = ids.matrixIds.length + ids.baseIds.length > room;
  const logos = ids.matrixIds.length > room;
  if (!idFolders && !logos) return { ...FLAT };
  const all = [...ids.matrixIds, ...ids.baseIds];
  // Ids are at least six characters (MA0004); a prefix that long always fits.
  let shard = 2;
  while (shard < 6 && (fullestShard(all, shard) > room || fullestShard(ids.matrixIds, shard) > room)) shard++;
  return { idFolders, logos, shard };
}

/** "MA" for MA0004.1 and MA0004 (a layout cutting after two characters). */
export const shardOf = (id: string, within: Layout): string => id.slice(0, within.shard);

/** The distinct shard folders of these ids, sorted. */
export const shardsOf = (ids: Iterable<string>, within: Layout): string[] => [...new Set([...ids].map((id) => shardOf(id, within)))].sort();
