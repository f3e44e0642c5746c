// A site without the edge indexes (built before them, or unreadable): the
// handler leaves every request to the static files instead of failing.
import { describe, expect, it, vi } from 'vitest';
import { createHandler, type EdgeSite } from '../../generator/edge/handler.ts';

describe('edge handler without its indexes', () => {
  it('passes the request to the static files', async () => {
    const seen: string[] = [];
    const site: EdgeSite = {
      next: async (request) => {
        seen.push(request.url);
        return new Response('static', { status: 200 });
      },
      readFile: async () => null,
    };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await createHandler()(new Request('http://jaspar.test/api/v1/matrix/?search=sox'), site);
    quiet.mockRestore();
    expect(await response.text()).toBe('static');
    expect(seen).toEqual(['http://jaspar.test/api/v1/matrix/?search=sox']);
  });
  it('still answers what needs no index (an unknown format, 406)', async () => {
    const site: EdgeSite = { next: async () => new Response('static'), readFile: async () => null };
    const response = await createHandler()(new Request('http://jaspar.test/api/v1/matrix/?format=xml'), site);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"detail":"Not found."}');
  });
});
