// The one place that knows the URL layout. Every resource has
//  - a query URL, the address the real JASPAR API uses (bodies carry these);
//  - a path URL, a plain file path that any static server can serve;
//  - an output path, relative to the output folder (the path URL without "/").
// Links in bodies, the redirect rules and the writer all ask this module.
import { FORMATS, type FormatId } from '../formats/registry.ts';

export const API = '/api/v1';
export const LIST = `${API}/matrix`;

/** File name of a resource in format f inside its folder. The api format is
 *  index.html so that a static server answers the folder URL with the page. */
export function fileName(format: FormatId): string {
  return `index.${FORMATS[format].extension}`;
}

export const listDir = (page: number) => `${LIST}/page/${page}/`;
export const detailDir = (matrixId: string) => `${LIST}/${matrixId}/`;
export const versionsDir = (baseId: string) => `${LIST}/${baseId}/versions/`;

/** Path URL of a resource folder + format: "/api/v1/matrix/page/3/index.json".
 *  The api format is addressed by its folder, which static servers map to index.html. */
export function pathUrl(dir: string, format: FormatId): string {
  return format === 'api' ? dir : `${dir}${fileName(format)}`;
}

/** Where pages for people link to a resource's own page. On Netlify a
 *  matrix or versions folder URL answers JSON (the API's default format),
 *  so those links ask for the page with ?format=api, which static hosts
 *  answer with the folder's index.html as well. List page folders have no
 *  rule and are linked as they are. */
export function pageHref(dir: string): string {
  return dir.startsWith(`${LIST}/page/`) ? dir : `${dir}?format=api`;
}

/** Output path (relative, no leading slash) of a resource folder + format. */
export function outputPath(dir: string, format: FormatId): string {
  return `${dir}${fileName(format)}`.slice(1);
}

// Query URLs, as the real service writes them (keys in alphabetical order).
export const listQueryUrl = (base: string, format: FormatId, page: number) => `${base}${LIST}?format=${format}&page=${page}`;
export const detailUrl = (base: string, matrixId: string) => `${base}${LIST}/${matrixId}/`;
export const detailQueryUrl = (base: string, matrixId: string, format: FormatId) => `${base}${LIST}/${matrixId}/?format=${format}`;
/** The real service writes versions_url without a trailing slash. */
export const versionsUrl = (base: string, baseId: string) => `${base}${LIST}/${baseId}/versions`;
export const versionsQueryUrl = (base: string, baseId: string, format: FormatId) => `${base}${LIST}/${baseId}/versions/?format=${format}`;

export const logoPath = (matrixId: string) => `/static/logos/svg/${matrixId}.svg`;
export const logoUrl = (base: string, matrixId: string) => `${base}${logoPath(matrixId)}`;
export const sitesPath = (matrixId: string) => `/download/bed_files/${matrixId}.bed`;
export const sitesUrl = (base: string, matrixId: string) => `${base}${sitesPath(matrixId)}`;

export const errorPaths = {
  notFound: `${API}/errors/not-found.json`,
  invalidPage: `${API}/errors/invalid-page.json`,
} as const;

/** Base URL without a trailing slash; rejects anything that is not http(s). */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--base-url "${raw}" is not an absolute URL (e.g. https://jaspar-mirror.example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`--base-url "${raw}" must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new Error(`--base-url "${raw}" must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
