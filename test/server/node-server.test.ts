// The Node server (serve.mjs, generator/server/) as users run it, over the
// site the global setup built: HTTP itself (methods, request targets, limits,
// validators, ranges, compression, HEAD, graceful stop) and hostile requests
// (issue 19): no 5xx, no echo, no redirect off the site, no path out of it.
// What it answers for the API is the conformance suite's and the oracle
// grid's (test/hosts/, test/edge/handler-oracle.test.ts).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, startSiteServer, type RunningServer } from '../support/servers.ts';

const siteDir = inject('siteDir');
let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startSiteServer('node', siteDir);
  port = Number(new URL(server.origin).port);
});
afterAll(() => server?.stop());

/** One raw HTTP/1.1 exchange (what fetch cannot send: any method, target or header); the whole answer as text. */
function raw(request: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, timeoutMs);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', reject);
    socket.write(request);
  });
}
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const get = (target: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${target}`, { headers, redirect: 'manual' });

describe('methods', () => {
  it.each(['TRACE', 'PUT', 'DELETE', 'POST', 'PATCH', 'PROPFIND', 'CONNECT'])('%s: 405 with Allow, nothing echoed', async (method) => {
    const target = method === 'CONNECT' ? 'evil.example:443' : '/api/v1/matrix/MA0139.1/index.json';
    const answer = await raw(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nX-Secret: echo-me\r\nContent-Length: 7\r\nConnection: close\r\n\r\nsecret!`);
    expect([405, 400]).toContain(statusOf(answer));
    if (method !== 'CONNECT') expect(answer).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i);
    expect(answer).not.toContain('echo-me');
    expect(answer).not.toContain('secret!');
  });

  it('an Upgrade (WebSocket) request is answered as a GET', async () => {
    const answer = await raw('GET /api/v1/ HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n', 3_000);
    expect(statusOf(answer)).toBe(200);
  });

  it('OPTIONS: 200 with Allow on a page, the service\'s metadata on the API, and OPTIONS *', async () => {
    for (const target of ['/', '/api/v1/matrix/', '*']) {
      const answer = await raw(`OPTIONS ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(statusOf(answer), target).toBe(200);
      expect(answer.toLowerCase(), target).toContain('\r\nallow: get, head, options\r\n');
    }
  });

  it('HEAD: GET\'s headers and length, no body', async () => {
    for (const target of ['/api/v1/matrix/MA0139.1/?format=meme', '/api/v1/matrix/?search=sox', '/static/logos/svg/MA0139.1.svg']) {
      const [head, full] = await Promise.all([fetch(`${server.origin}${target}`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } }), get(target, { 'accept-encoding': 'gzip' })]);
      const body = Buffer.from(await full.arrayBuffer());
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      // fetch decodes the GET body but keeps its headers: the encoded length, as HEAD gives it.
      for (const name of ['content-type', 'etag', 'vary', 'content-encoding', 'content-length']) expect(head.headers.get(name), `${target} ${name}`).toBe(full.headers.get(name));
      expect(head.headers.get('content-encoding')).toBe('gzip');
      expect(body.length).toBeGreaterThan(0);
    }
  });
});

describe('hostile requests: no 5xx, no echo, nothing off the site', () => {
  it.each([
    '/index.html%00.json', '/api/v1/matrix/%00/', '/%c0%ae%c0%ae/etc/passwd', '/..%2f..%2f..%2fetc/passwd', '/api/v1/matrix/MA0139.1/..%2f..%2f..%2f..%2f..%2fetc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd', '/_hosting/..%5c..%5c..%5cetc/passwd', '/%5cevil.example/..%2fapi/v1/matrix?page_size=5000', '/%2f%2fevil.example/..%2fapi/v1/matrix?page_size=5000',
    '/api/v1/matrix/?search=%zz', '/api/v1/matrix/%zz/', '/api/v1/matrix/?search=%00', '/.build-state.json', '/api/v1/matrix/?format=jsonp&callback=alert(1)//',
  ])('%s', async (target) => {
    const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    const status = statusOf(answer);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    expect(answer).not.toContain('root:x:0:0');
    expect(answer).not.toContain('evil.example');
    expect(answer).not.toContain('alert(1)');
  });

  it('absolute-form targets are answered by their path, their host and the Host header never echoed', async () => {
    const answer = await raw('GET http://evil.example/api/v1/matrix/?format=json&page_size=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expect(statusOf(answer)).toBe(200);
    expect(answer).toContain('"count":');
    expect(answer).not.toContain('evil.example');
  });

  it('a folder without its slash redirects on the site, one leading slash whatever the request had', async () => {
    for (const [target, location] of [['/api', '/api/'], ['//api', '/api/'], ['/download?x=1', '/download/?x=1']]) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
      expect(statusOf(answer), target).toBe(301);
      expect(/\r\nlocation: ([^\r]*)\r\n/i.exec(answer)?.[1], target).toBe(location);
    }
  });

  it('limits: oversized headers 431, a long target 414, malformed HTTP and a missing Host 400', async () => {
    expect(statusOf(await raw(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`))).toBe(431);
    expect(statusOf(await raw(`GET /${'a'.repeat(9_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`))).toBe(414);
    expect(statusOf(await raw('GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n'))).toBe(400);
    expect(statusOf(await raw('GARBAGE\r\n\r\n'))).toBe(400);
    expect(statusOf(await raw('GET / HTTP/1.1\r\nConnection: close\r\n\r\n'))).toBe(400);
  });
});

describe('validators, ranges, compression', () => {
  const logo = '/static/logos/svg/MA0139.1.svg';
  const logoBytes = () => readFileSync(path.join(siteDir, logo));

  it('ETag from the content: If-None-Match and If-Modified-Since answer 304', async () => {
    const first = await get(logo);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    // fetch asks for gzip or brotli: the ETag of that encoding of the content.
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}-(gz|br)"$/);
    expect((await get(logo, { 'if-none-match': etag })).status).toBe(304);
    expect((await get(logo, { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await get(logo, { 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get(logo, { 'if-modified-since': first.headers.get('last-modified')! })).status).toBe(304);
    // The same bytes by another URL (a matrix by its query URL) have the same ETag.
    const json = await get('/api/v1/matrix/MA0139.1/?format=json');
    expect((await get('/api/v1/matrix/MA0139.1/index.json')).headers.get('etag')).toBe(json.headers.get('etag'));
  });

  it('one byte range (206), an unsatisfiable one (416), If-Range', async () => {
    const r = await get(logo, { range: 'bytes=10-19' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes 10-19/${logoBytes().length}`);
    expect(Buffer.from(await r.arrayBuffer()).equals(logoBytes().subarray(10, 20))).toBe(true);
    const tail = await get(logo, { range: 'bytes=-5' });
    expect(Buffer.from(await tail.arrayBuffer()).equals(logoBytes().subarray(-5))).toBe(true);
    const beyond = await get(logo, { range: 'bytes=999999999-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${logoBytes().length}`);
    expect((await get(logo, { range: 'bytes=0-9', 'if-range': '"stale"' })).status).toBe(200);
    // A large file (streamed from disk): its last bytes.
    const archive = readFileSync(path.join(siteDir, 'download/jaspar-api-mirror.tar.gz'));
    const end = await get('/download/jaspar-api-mirror.tar.gz', { range: `bytes=${archive.length - 100}-` });
    expect(end.status).toBe(206);
    expect(Buffer.from(await end.arrayBuffer()).equals(archive.subarray(archive.length - 100))).toBe(true);
  });

  it('gzip and brotli for text by Accept-Encoding, with Vary; not for the archive', async () => {
    const target = '/api/v1/matrix/?format=json&page=3';
    const plain = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const identity = Buffer.from(plain.slice(plain.indexOf('\r\n\r\n') + 4), 'latin1');
    expect(plain.toLowerCase()).not.toContain('content-encoding');
    for (const [encoding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`);
      const [head, ...rest] = answer.split('\r\n\r\n');
      expect(head.toLowerCase()).toContain(`\r\ncontent-encoding: ${encoding}\r\n`);
      expect(head.toLowerCase()).toMatch(/\r\nvary: accept, accept-encoding\r\n/);
      const body = decode(Buffer.from(rest.join('\r\n\r\n'), 'latin1'));
      expect(body.equals(identity)).toBe(true);
      expect(body.toString('utf8')).toContain('"count":');
    }
    const none = await raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip;q=0, br;q=0\r\nConnection: close\r\n\r\n`);
    expect(none.toLowerCase()).not.toContain('content-encoding');
    const archive = await raw('HEAD /download/jaspar-api-mirror.tar.gz HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n');
    expect(archive.toLowerCase()).not.toContain('content-encoding');
  });
});

describe('serve.mjs itself', () => {
  it('refuses a bad option with a fix, and stops gracefully on SIGTERM, finishing an answer in flight', async () => {
    const bad = spawn(process.execPath, [path.join(siteDir, 'serve.mjs'), '--prot', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    bad.stderr.on('data', (d) => (stderr += d));
    expect(await new Promise((resolve) => bad.once('exit', resolve))).toBe(2);
    expect(stderr).toMatch(/fix: usage: node serve\.mjs/);

    const own = await freePort();
    const child = spawn(process.execPath, [path.join(siteDir, 'serve.mjs'), '--port', String(own)], { stdio: 'ignore' });
    try {
      for (let i = 0; i < 100; i++) {
        try {
          await fetch(`http://127.0.0.1:${own}/`).then((r) => r.arrayBuffer());
          break;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const inFlight = fetch(`http://127.0.0.1:${own}/download/jaspar-api-mirror.tar.gz`).then(async (r) => (await r.arrayBuffer()).byteLength);
      await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGTERM');
      const [code, bytes] = await Promise.all([new Promise((resolve) => child.once('exit', resolve)), inFlight]);
      expect(code).toBe(0);
      expect(bytes).toBe(readFileSync(path.join(siteDir, 'download/jaspar-api-mirror.tar.gz')).length);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
