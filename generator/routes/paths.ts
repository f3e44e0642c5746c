// The fixed paths of the API and of the site's own pages and assets. A leaf
// module (it imports nothing), so that formats/api.ts can use it without an
// import cycle through the format registry; urls.ts re-exports it.
export const API = '/api/v1';
export const LIST = `${API}/matrix`;
/** The documentation page; also answers rbioapi's health check (HEAD /api/v1/live-api/). */
export const DOCS_DIR = `${API}/live-api/`;

// The site's own pages and assets (not the real service's).
export const HOME = '/';
export const SEARCH_PAGE = '/search/';
export const DOWNLOADS_PAGE = '/download/';
export const SITE_CSS = '/static/api/site.css';
export const SITE_JS = '/static/api/site.js';
export const SEARCH_JS = '/static/api/search.js';
export const SEARCH_INDEX = '/static/search/index.json';
/** What Netlify and http-server answer a missing file with: the API's "Not found." for programs. */
export const NOT_FOUND_PAGE = '/404.html';
/** The 404 for people, where a host answers by the Accept header (nginx, Caddy, Apache, the edge handler). */
export const NOT_FOUND_PEOPLE = '/404/';
