// Where the offline mirror's files live in the site. Everything sits under
// /download/, beside the release's BED files (routes/urls.ts sitesPath); the
// bundles keep the folder and file names of JASPAR's own download area
// (https://jaspar.elixir.no/download/data/2024/CORE/…), so a script that
// fetches a bundle from JASPAR only needs another host.

export const DOWNLOADS = '/download/';

/** The archive of the whole site. Its name does not carry the release so
 *  that links to it stay stable; the folder inside has the same stem. */
export const ARCHIVE = '/download/jaspar-api-mirror.tar.gz';
export const ARCHIVE_FOLDER = 'jaspar-api-mirror';

/** SHA-256 of every file of the site but the archive and its checksum, `sha256sum` format, paths relative to the
 *  site root: the same file in the site and in the archive, so `sha256sum -c download/SHA256SUMS` passes in both. */
export const MANIFEST = '/download/SHA256SUMS';

/** The archive's own checksum, `sha256sum` format, its path relative to download/: `sha256sum -c` passes beside a
 *  downloaded archive (issue 19: a manifest listing 145,000 other files failed there). */
export const ARCHIVE_SUM = '/download/jaspar-api-mirror.tar.gz.sha256';

/** Tells GitHub Pages not to run Jekyll, which would take minutes over the site and drop every folder starting with "_". */
export const NOJEKYLL = '.nojekyll';

/** The release's list (every page's results) in one file per format. */
export const allMatricesPath = (year: number, suffix: string) => `/download/all/JASPAR${year}_all_matrices${suffix}`;

/** A JASPAR-layout bundle: CORE sets in CORE/, other collections in collections/, as JASPAR files them. */
export function bundlePath(year: number, collection: string, set: string, format: string): string {
  const folder = collection === 'CORE' ? 'CORE' : 'collections';
  return `/download/data/${year}/${folder}/JASPAR${year}_${set}_pfms_${format}.txt`;
}

/** The downloads page's script (sizes of the archive and manifest, which the page cannot state itself). */
export const DOWNLOADS_JS = '/static/api/downloads.js';

/** Output path (no leading "/") of a root-relative URL path. */
export const rel = (urlPath: string) => urlPath.slice(1);

/** Files at the output root whose name starts with "." (build state) are not part of the site; .nojekyll is. */
export const isSiteFile = (relPath: string) => relPath === NOJEKYLL || !relPath.startsWith('.');
