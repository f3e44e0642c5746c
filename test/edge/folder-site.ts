// An EdgeSite over a built site folder, for running the handler in process:
// next() answers a path URL as a plain static server does (a folder URL with
// its index.html, a missing file with /404.html and status 404, the query
// ignored), readFile() reads a file of the folder. Nothing outside the folder
// is read: a path that would leave it is absent.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EdgeSite } from '../../generator/edge/handler.ts';

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.js': 'application/javascript; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface FolderSite extends EdgeSite {
  /** Files read through readFile and next, for the measurements. */
  reads: number;
}

export function folderSite(root: string): FolderSite {
  const resolve = (urlPath: string): string | null => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const file = path.join(root, path.posix.normalize(decoded));
    return file === root || file.startsWith(root + path.sep) ? file : null;
  };
  const read = async (urlPath: string): Promise<Buffer | null> => {
    const file = resolve(urlPath);
    if (file === null) return null;
    try {
      site.reads++;
      return await readFile(file);
    } catch {
      return null;
    }
  };
  const site: FolderSite = {
    reads: 0,
    async next(request) {
      const { pathname } = new URL(request.url);
      const filePath = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
      const bytes = await read(filePath);
      if (bytes === null) return new Response(new Uint8Array((await read('/404.html')) ?? []), { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), { status: 200, headers: { 'Content-Type': TYPES[path.extname(filePath)] ?? 'application/octet-stream' } });
    },
    async readFile(urlPath) {
      return (await read(urlPath))?.toString('utf8') ?? null;
    },
  };
  return site;
}
