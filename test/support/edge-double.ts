// A test double of the edge handler (generator/edge/handler.ts, same
// signature), small enough to show what each engine does with a handler:
// `?edge=…` selects an answer, everything else goes to site.next(), as the
// real handler does with what the files answer. Never shipped: the entry
// files import the real handler.
import type { EdgeSite } from '../../generator/edge/hosts/types.ts';

const ALLOW = 'GET, HEAD, OPTIONS';

export async function handle(request: Request, site: EdgeSite): Promise<Response> {
  const url = new URL(request.url);
  const edge = url.searchParams.get('edge');
  if (request.method === 'OPTIONS') {
    return Response.json({ name: 'double', methods: ALLOW }, { headers: { allow: ALLOW, 'x-edge-double': 'options' } });
  }
  switch (edge) {
    case null:
      return site.next(request);
    case 'ping':
      return Response.json({ pong: true, method: request.method, path: url.pathname, query: url.search }, { headers: { 'x-edge-double': 'ping' } });
    case 'status':
      // A status and headers of the handler's own, which the engine must pass through.
      return new Response('teapot\n', {
        status: 418,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-edge-double': 'status', 'cache-control': 'no-store', vary: 'Accept' },
      });
    case 'read': {
      const path = url.searchParams.get('path') ?? '';
      const text = await site.readFile(path);
      return Response.json({ path, length: text === null ? null : new TextEncoder().encode(text).length, text }, { headers: { 'x-edge-double': 'read' } });
    }
    case 'file': {
      // Another file of the site through next() (the handler's path URL of a query).
      const target = new URL(url.searchParams.get('path') ?? '/', url);
      return site.next(new Request(target, { method: request.method, headers: request.headers }));
    }
    case 'missing':
      // The handler's own 404 (Invalid page., Not found.), which the engine must send as it is. Like the
      // real handler, a path it has no route for (an .html file) goes to the files.
      if (/\.html?$/.test(url.pathname)) return site.next(request);
      return Response.json({ detail: 'Not found.' }, { status: 404, headers: { 'x-edge-double': 'missing' } });
    default:
      return Response.json({ detail: 'unknown edge= value' }, { status: 400 });
  }
}
