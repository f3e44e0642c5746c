// The netlify dev retry guard of the Netlify adapter (generator/edge/hosts/netlify-dev-retries.ts).
import { describe, expect, it } from 'vitest';
import { DevRetries, retryUrls } from '../../../generator/edge/hosts/netlify-dev-retries.ts';

const dev = (url: string, method = 'GET') => new Request(url, { method, headers: { 'x-nf-deploy-context': 'dev' } });

describe('netlify dev retries of a 404', () => {
  it.each([
    ['/api/v1/matrix/', '?page=999', ['/api/v1/matrix.html?page=999', '/api/v1/matrix.htm?page=999', '/api/v1/matrix/index.html?page=999', '/api/v1/matrix/index.htm?page=999']],
    ['/api/v1/matrix/MA0004.1', '', ['/api/v1/matrix/MA0004.1.html', '/api/v1/matrix/MA0004.1.htm', '/api/v1/matrix/MA0004.1/index.html', '/api/v1/matrix/MA0004.1/index.htm']],
    ['/', '?a=1', ['/index.html?a=1', '/index.htm?a=1']],
  ])('%s%s is retried at netlify-cli\'s pretty-URL variants', (pathname, search, expected) => {
    expect(retryUrls(pathname, search)).toEqual(expected);
  });

  it('applies to netlify dev requests only', () => {
    expect(DevRetries.applies(dev('http://x/'))).toBe(true);
    expect(DevRetries.applies(new Request('http://x/', { headers: { 'x-nf-deploy-context': 'production' } }))).toBe(false);
    expect(DevRetries.applies(new Request('http://x/'))).toBe(false);
  });

  it('answers a retry with the 404 just given, body and headers, and HEAD without body', async () => {
    const retries = new DevRetries();
    const first = await retries.remember(dev('http://x/api/v1/matrix/?page=9'), Response.json({ detail: 'Invalid page.' }, { status: 404, headers: { vary: 'Accept' } }));
    expect(first.status).toBe(404);
    expect(await first.json()).toEqual({ detail: 'Invalid page.' });
    const again = retries.replay(dev('http://x/api/v1/matrix/index.html?page=9'));
    expect(again?.status).toBe(404);
    expect(again?.headers.get('vary')).toBe('Accept');
    expect(await again?.json()).toEqual({ detail: 'Invalid page.' });
    const head = retries.replay(dev('http://x/api/v1/matrix.htm?page=9', 'HEAD'));
    expect(head?.status).toBe(404);
    expect(await head?.text()).toBe('');
  });

  it('keeps nothing for other statuses, other queries or after 10 s', async () => {
    let now = 0;
    const retries = new DevRetries(() => now);
    await retries.remember(dev('http://x/a/'), new Response('ok'));
    expect(retries.replay(dev('http://x/a/index.html'))).toBeNull();
    await retries.remember(dev('http://x/b/?page=9'), new Response('no', { status: 404 }));
    expect(retries.replay(dev('http://x/b/index.html?page=8'))).toBeNull();
    expect(retries.replay(dev('http://x/b/?page=9'))).toBeNull();
    now = 10_001;
    expect(retries.replay(dev('http://x/b/index.html?page=9'))).toBeNull();
  });
});
