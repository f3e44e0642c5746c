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
  /** How to cite the release, shown on the pages for people. */
  citation?: string;
  /** The data's licence ("CC BY 4.0"). */
  license?: string;
}

export interface Release {
  info: ReleaseInfo;
  /** In matrices.csv row order. */
  matrices: Matrix[];
}
