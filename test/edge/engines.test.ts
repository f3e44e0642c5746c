// The two real edge engines, offline, over the built site: Netlify Edge
// Functions under `netlify dev` (Deno + Netlify's bootstrap) and a Cloudflare
// Worker with static assets under `wrangler dev` (workerd). Each runs the host
// adapter (generator/edge/hosts/) around a handler double
// (test/support/edge-double.ts) that shows what reaches the handler and what
// it gets from the site: that a request reaches the handler, that next()
// serves the static file byte for byte, that readFile reads a site file (null
// for a missing one), that the handler's status and headers pass through,
// HEAD and OPTIONS.
//
// Cloudflare refuses the full build (144,592 files where a Worker's assets
// take at most 100,000, and the 89 MiB mirror archive where one asset takes at
// most 25 MiB): it is given a view of the site without the archive and with
// the matrix folders of the sample matrices only (cloudflareSiteView).
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENGINES, cloudflareSiteView, startEdgeServer, type EdgeServer, type Engine } from '../support/edge-servers.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const DOUBLE = path.join(PROJECT_ROOT, 'test/support/edge-double.ts');
const SAMPLE_IDS = new Set(['MA0004.1', 'MA0004']);
/** Static files served through each engine (on Netlify the function is declared on /api/*; the logo is outside it). */
const STATIC_FILES = [
  '/api/v1/matrix/MA0004.1/index.json',
  '/api/v1/matrix/MA0004.1/index.jaspar.txt',
  '/api/v1/matrix/MA0004.1/index.meme.txt',
  '/api/v1/matrix/page/2/index.json',
  '/api/v1/matrix/page/2/index.yaml',
  '/api/v1/openapi.json',
  '/static/logos/svg/MA0004.1.svg',
];

// The two engines side by side (each starts in seconds, mostly waiting), the
// tests of one engine one after the other (the last reads its whole output).
describe.concurrent.each(ENGINES)('edge engine %s, handler double', (engine: Engine) => {
  const siteDir = inject('siteDir');
  let server: EdgeServer;
  let servedDir = siteDir;
  let view: string | undefined;
  const fileBytes = (urlPath: string) => readFileSync(path.join(servedDir, urlPath));

  beforeAll(async () => {
    if (engine === 'cloudflare') {
      const made = await cloudflareSiteView(siteDir, SAMPLE_IDS);
      view = made.dir;
      servedDir = made.dir;
    }
    server = await startEdgeServer(engine, servedDir, { handler: DOUBLE });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (view) await rm(view, { recursive: true, force: true });
  });

  it.sequential('a request reaches the handler, with its path and query', async () => {
    const response = await fetch(`${server.origin}/api/v1/matrix/MA0004.1/?edge=ping&x=%C3%A9`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-edge-double')).toBe('ping');
    expect(await response.json()).toEqual({ pong: true, method: 'GET', path: '/api/v1/matrix/MA0004.1/', query: '?edge=ping&x=%C3%A9' });
  });

  it.sequential.each(STATIC_FILES)('next() serves %s byte for byte', async (urlPath) => {
    const response = await fetch(`${server.origin}${urlPath}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(fileBytes(urlPath))).toBe(true);
  });

  it.sequential('next(request) serves another file of the site (a query URL answered by its path URL)', async () => {
    const target = '/api/v1/matrix/MA0004.1/index.transfac.txt';
    const response = await fetch(`${server.origin}/api/v1/matrix/MA0004.1/?edge=file&path=${encodeURIComponent(target)}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(fileBytes(target))).toBe(true);
  });

  it.sequential('readFile reads a site file, and null for a file the site does not have', async () => {
    const target = '/api/v1/matrix/page/2/index.json';
    const found = await (await fetch(`${server.origin}/api/v1/?edge=read&path=${encodeURIComponent(target)}`)).json();
    expect(found.text).toBe(fileBytes(target).toString('utf8'));
    const missing = await (await fetch(`${server.origin}/api/v1/?edge=read&path=${encodeURIComponent('/api/v1/no-such-file.json')}`)).json();
    expect(missing).toEqual({ path: '/api/v1/no-such-file.json', length: null, text: null });
  });

  it.sequential("the handler's status and headers pass through", async () => {
    const response = await fetch(`${server.origin}/api/v1/?edge=status`);
    expect(response.status).toBe(418);
    expect(response.headers.get('x-edge-double')).toBe('status');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('teapot\n');
  });

  it.sequential("the handler's 404 reaches the client as it is (netlify dev would retry it at other paths)", async () => {
    for (const urlPath of ['/api/v1/matrix/?edge=missing&page=999', '/api/v1/matrix/MA0004.1?edge=missing']) {
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${server.origin}${urlPath}`);
        expect(response.status, urlPath).toBe(404);
        expect(response.headers.get('x-edge-double'), urlPath).toBe('missing');
        expect(await response.json(), urlPath).toEqual({ detail: 'Not found.' });
      }
    }
  });

  it.sequential('a file the site does not have: 404 with the site 404 page', async () => {
    const response = await fetch(`${server.origin}/api/v1/no-such-folder/no-such-file.json`);
    expect(response.status).toBe(404);
    expect(Buffer.from(await response.arrayBuffer()).equals(fileBytes('/404.html'))).toBe(true);
  });

  it.sequential('HEAD: the status and type of GET, no body (static file and handler answer)', async () => {
    for (const urlPath of ['/api/v1/matrix/MA0004.1/index.json', '/api/v1/matrix/MA0004.1/?edge=ping']) {
      const get = await fetch(`${server.origin}${urlPath}`);
      await get.arrayBuffer();
      const head = await fetch(`${server.origin}${urlPath}`, { method: 'HEAD' });
      expect(head.status, urlPath).toBe(get.status);
      expect(head.headers.get('content-type'), urlPath).toBe(get.headers.get('content-type'));
      expect((await head.arrayBuffer()).byteLength, urlPath).toBe(0);
    }
  });

  it.sequential('OPTIONS reaches the handler; its Allow header passes through', async () => {
    const response = await fetch(`${server.origin}/api/v1/matrix/MA0004.1/`, { method: 'OPTIONS' });
    expect(response.status).toBe(200);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.json()).toEqual({ name: 'double', methods: 'GET, HEAD, OPTIONS' });
  });

  it.sequential('reads nothing from outside this machine: no failed look-up of another host in the engine output', () => {
    expect(server.output()).not.toMatch(/dns error|getaddrinfo|ENOTFOUND|EAI_AGAIN|Could not load latest version/i);
  });
});
