// The in-memory release: what the loader produces and every later stage reads.

export const BASES = ['A', 'C', 'G', 'T'] as const;
export type Base = (typeof BASES)[number];

/** Counts per base, one number per column; all four rows have the same length. */
export type Pfm = Record<Base, number[]>;

export interface Species {
  /** NCBI taxonomy id, or null where the release names the species without one. */
  taxId: number | null;
  name: string;
}

export interface Matrix {
  matrixId: string;
  baseId: string;
  version: number;
  collection: string;
  name: string;
  /** Full-precision counts where the release has them, else the .jaspar counts. */
  pfm: Pfm;
  taxGroup: string;
  tfClass: string[];
  tfFamily: string[];
  dataType: string;
  species: Species[];
  uniprotIds: string[];
  pubmedIds: string[];
  source: string;
  comment: string;
  /** Byte content of the release's BED file for this matrix, or null when it has none. */
  sites: string | null;
  /** 0-based position of the row in matrices.csv: the tie-breaker of the list order. */
  row: number;
}

/** What the project says about a release (data/release-<year>.yaml). */
export interface ReleaseInfo {
  name: string;
  year: number;
  /** TRANSFAC `DE <id> <name> ; <transfacFrom>` */
  transfacFrom: string;
  /** MEME `URL` line; `{matrix_id}` is replaced. */
  memeUrl: string;
  /** JASPAR's release number (2024 = 10, 2026 = 11; dataset/releases.ts), or null for a year JASPAR has not released. */
  number: number | null;
  /** The release's paper, as cited on the pages and in /api/v1/releases/; empty when the description gives none. */
  citation: string;
  license: string;
  /** Which collections JASPAR's release has and which of them the mirror holds, in the description's order; empty when it does not say. */
  collections: ReleaseCollection[];
  /** Absolute path of the release folder older versions take their counts from (`older_versions`, relative to the description's folder), or null. */
  olderVersions: string | null;
  /** Set by the build for a site of several releases: each release of the site and the path of its home page, for the pages' release switch. */
  siteReleases?: { name: string; year: number; home: string; current: boolean }[];
  /** Set by the build: what a person should know of this release beside the others of the site (what it adds, what it lacks), one sentence each. */
  siteNotes?: string[];
}

export interface ReleaseCollection {
  /** JASPAR's collection name, e.g. CORE. */
  name: string;
  /** True when the mirror holds it; false when JASPAR's files of it are not public (the reason is `status`). */
  mirrored: boolean;
  /** As the description says it: "mirrored" or "not published". */
  status: CollectionStatus;
}

export const COLLECTION_STATUSES = ['mirrored', 'not published'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

export interface Release {
  info: ReleaseInfo;
  /** In matrices.csv row order. */
  matrices: Matrix[];
}
