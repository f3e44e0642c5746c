// The site's folder as the edge handler's EdgeSite (edge/handler.ts), as
// Cloudflare's assets service and Netlify's static files give it there:
// next() answers a path URL with its file (a folder URL with its
// index.html, a folder without its slash with a 301 to it, a missing file
// with the site's /404.html and status 404), with the headers the site's
// _headers asks for (hosting/headers.ts, the same rules as data); readFile()
// reads a file of the folder.
//
// Nothing outside the folder is ever read: the path is decoded once, and a
// path that does not decode, holds a NUL, a backslash, a "." or ".." segment
// or any segment starting with "." (the build's state files at the root)
// is absent; the file's real path (symbolic links resolved) must still lie
// in the folder's.
//
// Files up to SMALL bytes are read whole (the server compresses and caches
// them); larger ones (the archive, the bulk downloads) are streamed, and
// the server answers Range requests on them from the file.
import { createReadStream } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { EdgeSite } from '../edge/handler.ts';
import { headerRules, type HeaderRule } from '../hosting/headers.ts';
import { contentTypeOf } from './types.ts';

/** Files up to this size are read into memory; larger ones are streamed. */
export const SMALL = 1 << 20;

/** What the server needs to know of a response that is a file of the site. */
export interface FileInfo {
  file: string;
  size: number;
  mtime: Date;
  /** The file's identity for caches of its hash: changes when it is replaced or rewritten. */
  key: string;
  /** Whether the body was read whole (else: a stream the server may replace by its own read of the file, e.g. for a Range). */
  whole: boolean;
}

/** Responses of next() that are files, for the server (conditional requests, Range, Last-Modified). */
export const fileResponses = new WeakMap<Response, FileInfo>();

export interface FolderSite extends EdgeSite {
  root: string;
}

/** The header rules as matchers: Netlify's `*` matches anything, slashes too; later rules win. */
function headerMatchers(rules: HeaderRule[]): [RegExp, Record<string, string>][] {
  return rules.map((r) => [new RegExp(`^${r.for.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`), r.values]);
}

/** The site-relative path of a URL path, or null when it may not be served (see above). */
export function sitePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || /[\0\\]/.test(decoded)) return null;
  const segments = decoded.split('/').slice(1);
  // A dot first in any segment: ".", "..", ".well-known", the build state (.build-state.json…).
  if (segments.some((s) => s.startsWith('.'))) return null;
  return segments.filter((s) => s !== '').join('/');
}

export async function folderSite(dir: string): Promise<FolderSite> {
  const root = await realpath(dir);
  const matchers = headerMatchers(headerRules());
  const inside = (file: string) => file === root || file.startsWith(root + path.sep);

  /** The real path of a site-relative path when it lies inside the site, else null. */
  const locate = async (relative: string): Promise<string | null> => {
    try {
      const real = await realpath(path.join(root, relative));
      return inside(real) ? real : null;
    } catch {
      return null;
    }
  };

  const headersFor = (urlPath: string, file: string): Headers => {
    const headers = new Headers({ 'Content-Type': contentTypeOf(file) });
    for (const [pattern, values] of matchers) if (pattern.test(urlPath)) for (const [k, v] of Object.entries(values)) headers.set(k, v);
    return headers;
  };

  const fileResponse = async (urlPath: string, file: string, status: number, head: boolean): Promise<Response> => {
    const info = await stat(file);
    const whole = info.size <= SMALL;
    const body = head ? null : whole ? new Uint8Array(await readFile(file)) : (Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>);
    const headers = headersFor(urlPath, file);
    headers.set('Content-Length', String(info.size));
    const response = new Response(body, { status, headers });
    fileResponses.set(response, { file, size: info.size, mtime: info.mtime, key: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`, whole });
    return response;
  };

  const notFound = async (head: boolean): Promise<Response> => {
    const page = await locate('404.html');
    if (page === null) return new Response(head ? null : 'Not found.\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    return fileResponse('/404.html', page, 404, head);
  };

  return {
    root,
    async next(request) {
      const url = new URL(request.url);
      const head = request.method === 'HEAD';
      if (request.method === 'OPTIONS') return new Response(null, { status: 200, headers: { Allow: 'GET, HEAD, OPTIONS', 'Content-Length': '0' } });
      const relative = sitePath(url.pathname);
      if (relative === null) return notFound(head);
      const found = await locate(relative);
      if (found === null) return notFound(head);
      const info = await stat(found);
      if (info.isDirectory()) {
        if (!url.pathname.endsWith('/')) {
          // To the folder URL, as a path on this site: one leading slash whatever the request had (never "//host").
          const location = `/${url.pathname.replace(/^\/+/, '')}/${url.search}`;
          return new Response(null, { status: 301, headers: { Location: location, 'Content-Length': '0' } });
        }
        const index = await locate(path.posix.join(relative, 'index.html'));
        return index === null ? notFound(head) : fileResponse(`${url.pathname}index.html`, index, 200, head);
      }
      if (!info.isFile() || url.pathname.endsWith('/')) return notFound(head);
      return fileResponse(url.pathname, found, 200, head);
    },
    async readFile(urlPath) {
      const relative = sitePath(urlPath);
      const file = relative === null ? null : await locate(relative);
      if (file === null) return null;
      try {
        return await readFile(file, 'utf8');
      } catch {
        return null; // a folder, or gone meanwhile
      }
    },
  };
}

/** The bytes [start, end] of a file, streamed (a Range request). */
export async function fileRange(file: string, start: number, end: number): Promise<Readable> {
  // Opened first, so that a file gone meanwhile fails here, not in the middle of an answer.
  const handle = await open(file, 'r');
  return handle.createReadStream({ start, end, autoClose: true });
}
