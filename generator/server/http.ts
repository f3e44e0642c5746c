// The Node server (issue 19): the edge handler (edge/handler.ts) over the
// site's folder (files.ts) with Node's own `http`, so that a downloaded
// mirror answers every query as the service does with only Node present.
// What a vendor's edge adds around the handler is done here:
// - the request: only GET, HEAD and OPTIONS reach the handler (405 with
//   Allow before a Request is built: `new Request()` throws on TRACE and
//   CONNECT); the target in origin or absolute form (its host ignored),
//   slashes merged as nginx does, "." and ".." resolved as URLs are; the
//   Host header is never read, so it is never echoed;
// - limits: request line and headers (maxHeaderSize, 431), URL length (414),
//   headers within HEADERS_TIMEOUT and the whole request within
//   REQUEST_TIMEOUT (slow clients, 408), an idle or unread socket closed
//   after IDLE_TIMEOUT, keep-alive for KEEP_ALIVE;
// - the answer: streamed files, ETag from the content (changes when the
//   bytes change, unlike nginx's mtime-and-size), If-None-Match and
//   If-Modified-Since (304), single byte ranges (206/416, If-Range),
//   gzip or brotli for text types by Accept-Encoding (Vary: Accept-Encoding),
//   HEAD with GET's headers;
// - malformed input never gives a 5xx: a parse error is a 400, anything the
//   handler cannot take is refused before it; a fault of the server itself
//   is a 500 saying so, logged;
// - stop(): no new connections, idle ones closed, the answers in flight
//   finished (Connection: close), the rest cut after STOP_GRACE.
import { createHash } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import { createHandler, type Handle } from '../edge/handler.ts';
import { toJson } from '../formats/json.ts';
import { SECURITY_HEADERS } from '../hosting/headers.ts';
import { fileRange, fileResponses, folderSite, type FileInfo } from './files.ts';
import { compressible } from './types.ts';

export const LIMITS = {
  /** Request line and headers, bytes (Node's parser answers 431 above). */
  maxHeaderSize: 16 * 1024,
  /** The request target, characters (414 above). */
  maxUrlLength: 8 * 1024,
  /** A request body the server reads and drops before answering on the same connection; larger: the connection is closed after the answer. */
  maxBodyBytes: 64 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveMs: 5_000,
  idleTimeoutMs: 60_000,
  stopGraceMs: 10_000,
} as const;

const ALLOW = 'GET, HEAD, OPTIONS';
/** The handler's requests carry this origin: it never reaches a body (absolute URLs there are the build's --base-url). */
const ORIGIN = 'http://mirror.invalid';
/** Bodies below this size are sent as they are. */
const MIN_COMPRESS = 256;
const COMPRESSED_CACHE_BYTES = 32 << 20;
const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 5;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export interface ServerOptions {
  /** The built site or unpacked mirror. */
  dir: string;
  /** The handler (default: a new edge handler, createHandler()); tests pass a double. */
  handle?: Handle;
  /** Where faults of the server are written (default: stderr). */
  log?: (line: string) => void;
}

export interface MirrorServer {
  server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Graceful stop: resolves when every connection is closed. */
  stop(): Promise<void>;
}

type Encoding = 'br' | 'gzip';

/** The encoding to send: brotli, then gzip, among those the client accepts with q > 0. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  return accepts('br') ? 'br' : accepts('gzip') ? 'gzip' : null;
}

/** A single byte range of a body of `size` bytes: [start, end], 'unsatisfiable', or null (no usable Range: the whole body). */
export function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or another unit: the whole body (RFC 9110 allows it)
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null; // invalid: ignored
  if (start >= size) return 'unsatisfiable';
  return [start, end];
}

/** The target's path and query (origin or absolute form; the host of the latter ignored), slashes merged; null when it is neither. */
export function targetOf(raw: string): string | null {
  let url: URL;
  try {
    if (raw.startsWith('/')) url = new URL(`${ORIGIN}${raw}`);
    else if (/^https?:\/\//i.test(raw)) url = new URL(raw);
    else return null;
  } catch {
    return null;
  }
  return `${url.pathname.replace(/\/{2,}/g, '/')}${url.search}`;
}

const strongTag = (tag: string) => tag.replace(/^W\//, '').replace(/-(gz|br)"$/, '"');

/** Whether If-None-Match names this representation's content (weak comparison, any encoding of it). */
function noneMatch(header: string, etag: string): boolean {
  return header.split(',').some((t) => t.trim() === '*' || strongTag(t.trim()) === etag);
}

class LruBytes {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly limit: number) {}
  get(key: string): Buffer | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: Buffer): void {
    if (value.length > this.limit / 8) return;
    this.map.set(key, value);
    this.bytes += value.length;
    while (this.bytes > this.limit) {
      const [oldest, old] = this.map.entries().next().value as [string, Buffer];
      this.map.delete(oldest);
      this.bytes -= old.length;
    }
  }
}

const etagOf = (bytes: Buffer | string) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

export async function createMirrorServer(options: ServerOptions): Promise<MirrorServer> {
  const site = await folderSite(options.dir);
  const handle = options.handle ?? createHandler();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const compressed = new LruBytes(COMPRESSED_CACHE_BYTES);
  /** Large files' ETags by their identity (dev, inode, size, mtime): hashed once. */
  const largeTags = new Map<string, Promise<string>>();
  let stopping = false;

  const largeTag = (info: FileInfo): Promise<string> => {
    let tag = largeTags.get(info.key);
    if (tag === undefined) {
      tag = (async () => {
        const hash = createHash('sha256');
        for await (const chunk of await fileRange(info.file, 0, Math.max(0, info.size - 1))) hash.update(chunk as Buffer);
        return `"${hash.digest('base64url').slice(0, 27)}"`;
      })();
      tag.catch(() => largeTags.delete(info.key));
      if (largeTags.size > 1000) largeTags.delete(largeTags.keys().next().value as string);
      largeTags.set(info.key, tag);
    }
    return tag;
  };

  const baseHeaders = (res: ServerResponse) => {
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (stopping) res.setHeader('Connection', 'close');
  };

  /** An answer of the server itself (before the handler): the service's JSON error shape. */
  const own = (req: IncomingMessage, res: ServerResponse, status: number, detail: string | null) => {
    const body = detail === null ? '' : toJson({ detail });
    baseHeaders(res);
    res.setHeader('Allow', ALLOW);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    if (detail !== null) res.setHeader('Content-Type', 'application/json');
    res.writeHead(status);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const send = async (req: IncomingMessage, res: ServerResponse, response: Response, head: boolean) => {
    const info = fileResponses.get(response);
    const large = info !== undefined && !info.whole;
    let body: Buffer | null = null;
    if (large) await response.body?.cancel();
    else body = Buffer.from(await response.arrayBuffer());
    const size = large ? info.size : body!.length;
    const headers = new Headers(response.headers);
    headers.delete('Content-Length');
    const type = headers.get('Content-Type') ?? '';
    let status = response.status;
    let etag: string | null = null;
    if (status === 200) {
      etag = large ? await largeTag(info) : etagOf(body!);
      headers.set('ETag', etag);
      if (info !== undefined) headers.set('Last-Modified', info.mtime.toUTCString());
      headers.set('Accept-Ranges', 'bytes');
    }
    const zip = compressible(type) && size >= MIN_COMPRESS;
    if (zip) headers.set('Vary', headers.has('Vary') ? `${headers.get('Vary')}, Accept-Encoding` : 'Accept-Encoding');

    // Conditional requests (RFC 9110 13.2.2): If-None-Match, else If-Modified-Since.
    if (etag !== null) {
      const inm = req.headers['if-none-match'];
      const ims = req.headers['if-modified-since'];
      const notModified = inm !== undefined ? noneMatch(inm, etag) : ims !== undefined && info !== undefined && Math.floor(info.mtime.getTime() / 1000) <= Math.floor(Date.parse(ims) / 1000);
      if (notModified) {
        for (const name of ['Content-Type', 'Accept-Ranges']) headers.delete(name);
        writeHead(res, 304, headers);
        res.end();
        return;
      }
    }

    // A single byte range of the identity body.
    const rangeHeader = req.headers.range;
    if (status === 200 && rangeHeader !== undefined) {
      const ifRange = req.headers['if-range'];
      const fresh = ifRange === undefined || ifRange === etag || (info !== undefined && ifRange === info.mtime.toUTCString());
      const range = fresh ? parseRange(rangeHeader, size) : null;
      if (range === 'unsatisfiable') {
        headers.set('Content-Range', `bytes */${size}`);
        headers.set('Content-Type', 'application/json');
        const error = Buffer.from(toJson({ detail: `The range "${rangeHeader}" is outside the body (${size} bytes).` }));
        headers.set('Content-Length', String(error.length));
        writeHead(res, 416, headers);
        res.end(head ? undefined : error);
        return;
      }
      if (range !== null) {
        const [start, end] = range;
        headers.set('Content-Range', `bytes ${start}-${end}/${size}`);
        headers.set('Content-Length', String(end - start + 1));
        writeHead(res, 206, headers);
        if (head) res.end();
        else if (large) await pipe(await fileRange(info.file, start, end), res);
        else res.end(body!.subarray(start, end + 1));
        return;
      }
    }

    const encoding = zip ? chooseEncoding(req.headers['accept-encoding']) : null;
    if (encoding !== null) {
      headers.set('Content-Encoding', encoding);
      if (etag !== null) headers.set('ETag', etag.replace(/"$/, encoding === 'br' ? '-br"' : '-gz"'));
      if (large) {
        writeHead(res, status, headers);
        if (head) res.end();
        else await pipe(await fileRange(info.file, 0, size - 1), res, encoding === 'br' ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : createGzip({ level: GZIP_LEVEL }));
        return;
      }
      const key = etag === null ? null : `${encoding}:${etag}`;
      let packed = key === null ? undefined : compressed.get(key);
      if (packed === undefined) {
        packed = encoding === 'br' ? await brotliAsync(body!, { params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: size } }) : await gzipAsync(body!, { level: GZIP_LEVEL });
        if (key !== null) compressed.set(key, packed);
      }
      headers.set('Content-Length', String(packed.length));
      writeHead(res, status, headers);
      res.end(head ? undefined : packed);
      return;
    }
    headers.set('Content-Length', String(size));
    writeHead(res, status, headers);
    if (head || status === 304) res.end();
    else if (large) await pipe(await fileRange(info.file, 0, size - 1), res);
    else res.end(body);
  };

  const writeHead = (res: ServerResponse, status: number, headers: Headers) => {
    baseHeaders(res);
    for (const [k, v] of headers) res.setHeader(k, v);
    res.writeHead(status);
  };

  const respond = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const raw = req.url ?? '';
    // A body the server would have to read through before the next request: not on this connection.
    const length = Number(req.headers['content-length'] ?? 0);
    if (req.headers['transfer-encoding'] !== undefined || !(length <= LIMITS.maxBodyBytes)) res.setHeader('Connection', 'close');
    if (raw.length > LIMITS.maxUrlLength) return own(req, res, 414, `The request target is longer than ${LIMITS.maxUrlLength} characters.`);
    if (raw === '*') return method === 'OPTIONS' ? own(req, res, 200, null) : own(req, res, 400, 'The target "*" is for OPTIONS only.');
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return own(req, res, 405, `Method "${method}" not allowed.`);
    const target = targetOf(raw);
    if (target === null) return own(req, res, 400, 'The request target is not a path.');
    let request: Request;
    try {
      const headers = new Headers();
      const accept = req.headers.accept;
      if (accept !== undefined) headers.set('Accept', accept);
      // HEAD is answered as GET (same headers and length), without the body.
      request = new Request(`${ORIGIN}${target}`, { method: method === 'HEAD' ? 'GET' : method, headers });
    } catch {
      return own(req, res, 400, 'The request\'s Accept header is not valid.');
    }
    const response = await handle(request, site);
    await send(req, res, response, method === 'HEAD');
  };

  const server = createServer({
    maxHeaderSize: LIMITS.maxHeaderSize,
    headersTimeout: LIMITS.headersTimeoutMs,
    requestTimeout: LIMITS.requestTimeoutMs,
    keepAliveTimeout: LIMITS.keepAliveMs,
  }, (req, res) => {
    respond(req, res).catch((error: unknown) => {
      log(`serve: ${req.method} ${JSON.stringify(req.url)}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) {
        res.removeHeader('Content-Encoding');
        own(req, res, 500, 'The mirror\'s server failed on this request (it says why in its log).');
      } else res.destroy();
    });
  });
  server.timeout = LIMITS.idleTimeoutMs;
  // CONNECT (a proxy's tunnel): Node hands the socket over instead of a request (without a listener it closes it unanswered). An Upgrade without a listener is an ordinary request.
  const refuse = (req: IncomingMessage, socket: import('node:stream').Duplex) => {
    const body = toJson({ detail: `Method "${req.method}" not allowed.` });
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  };
  server.on('connect', refuse);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = toJson({ detail: status === 431 ? `The request line and headers are larger than ${LIMITS.maxHeaderSize} bytes.` : status === 408 ? 'The request was not received in time.' : 'The request is not valid HTTP/1.1.' });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  return {
    server,
    listen: (port, host) => new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    }),
    stop: () => new Promise<void>((resolve) => {
      stopping = true;
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), LIMITS.stopGraceMs).unref();
    }),
  };
}

/** Streams source (through a compressor) to the response; a client that goes away ends it quietly. */
function pipe(source: Readable, res: ServerResponse, through?: NodeJS.ReadWriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => resolve();
    if (through) pipeline(source, through, res, done);
    else pipeline(source, res, done);
  });
}
