// The Content-Type of every file of the site by its name, for hosts that
// choose it from the file alone: the Node server (before the site's own
// header rules, hosting/headers.ts, set the API formats' types by path) and
// object stores, which label a file once at upload (mirror/content-types.ts
// prints this table for them). An S3 upload without it labels the 15,459
// .yaml files binary/octet-stream (issue 19).
// Web-standard only: bundled into serve.mjs.

/** By the file's last extension (lower case, with the dot), or its whole name for the files without one. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.bed': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.gz': 'application/gzip',
  '.conf': 'text/plain; charset=utf-8',
  // Files without an extension: sha256sum's manifests, Netlify's rules, the Caddyfile.
  SHA256SUMS: 'text/plain; charset=utf-8',
  'jaspar-api-mirror.tar.gz.sha256': 'text/plain; charset=utf-8',
  _redirects: 'text/plain; charset=utf-8',
  _headers: 'text/plain; charset=utf-8',
  Caddyfile: 'text/plain; charset=utf-8',
  '.nojekyll': 'text/plain; charset=utf-8',
};

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The Content-Type of a file by its name (a path's last segment or the whole path). */
export function contentTypeOf(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (CONTENT_TYPES[name] !== undefined) return CONTENT_TYPES[name];
  const dot = name.lastIndexOf('.');
  return (dot > 0 ? CONTENT_TYPES[name.slice(dot).toLowerCase()] : undefined) ?? DEFAULT_CONTENT_TYPE;
}

/** Whether a body of this type is worth compressing: text (JSON, YAML, scripts, SVG); not the archive. */
export function compressible(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type.startsWith('text/') || type === 'application/json' || type === 'application/javascript' || type === 'application/yaml' || type === 'image/svg+xml' || type.endsWith('+json') || type.endsWith('+xml');
}
