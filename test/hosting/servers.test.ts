// The printed nginx, Caddy and Apache configs, read as text: what keeps them
// safe whatever the request (issue 19) and what they send for transfer and
// caching. The servers answering from them, hostile requests included:
// test/hosts/conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { CACHE_CONTROL, headerRules } from '../../generator/hosting/headers.ts';
import { ALLOW, COMPRESSED_TYPES, noMatchRegex, serverRouting } from '../../generator/hosting/routing.ts';
import { serverConfigs } from '../../generator/hosting/servers.ts';
import { FLAT, type Layout } from '../../generator/routes/shard.ts';
import { detailDir, logoPath, outputPath, versionsDir } from '../../generator/routes/urls.ts';

const SHARDED: Layout = { idFolders: true, logos: true, shard: 2 };

describe.each([
  ['flat, no prefix', FLAT, ''],
  ['sharded, prefix /jaspar', SHARDED, '/jaspar'],
] as const)('printed configs (%s)', (_name, layout, prefix) => {
  const files = new Map(serverConfigs({ prefix, layout, pageCount: 528, year: 2024 }));
  const caddy = files.get('_hosting/Caddyfile')!;
  const nginx = `${files.get('_hosting/nginx/http.conf')!}${files.get('_hosting/nginx/server.conf')!}`;
  const apache = files.get('_hosting/apache.conf')!;

  it('redirect only to the API\'s own paths, built from the route\'s captures (never the request\'s path or Host)', () => {
    const targets = [
      ...[...caddy.matchAll(/^\s*redir @\S+ (\S+) 301$/gm)].map((m) => m[1]),
      ...[...nginx.matchAll(/return 301 (\S+);/g)].map((m) => m[1]),
      ...[...apache.matchAll(/^RewriteRule \^ (\S+) \[R=301/gm)].map((m) => m[1]),
    ];
    // Every list (page_size above 1000), on each server.
    expect(targets.length).toBe(3 * serverRouting({ prefix, layout, pageCount: 528, year: 2024 }).lists.length);
    for (const target of targets) {
      expect(target.startsWith(`${prefix}/api/v1/`), target).toBe(true);
      expect(target, target).not.toMatch(/\{path\}|\{uri\}|\$uri|\$request_uri|REQUEST_URI|HTTP_HOST|\$host|\$http_host|\{host\}/);
    }
    expect(apache).not.toMatch(/RewriteRule \^\(\.\*\)\$ \S+ \[R=301/);
    expect(nginx).toContain('absolute_redirect off;');
    expect(apache).toMatch(/^UseCanonicalName On$/m);
  });

  it('allow GET, HEAD and OPTIONS only, and never echo TRACE', () => {
    expect(caddy).toContain(`header Allow "${ALLOW}"`);
    expect(caddy).toContain('@jaspar_method not method GET HEAD OPTIONS');
    expect(nginx).toContain(`add_header Allow "${ALLOW}" always;`);
    expect(nginx).toContain('if ($request_method !~ ^(GET|HEAD)$) {');
    expect(apache).toMatch(/^TraceEnable off$/m);
    expect(apache).toContain('RewriteCond %{REQUEST_METHOD} !^(GET|HEAD|OPTIONS)$');
    // The method is checked before any route (Caddy: before the first file matcher).
    const firstFile = caddy.search(/\s(not )?file \{vars/);
    expect(firstFile).toBeGreaterThan(0);
    expect(caddy.indexOf('@jaspar_method')).toBeLessThan(firstFile);
    expect(caddy.indexOf('@jaspar_control')).toBeLessThan(firstFile);
  });

  it('Caddy listens on a port for any Host, the interface from JASPAR_BIND', () => {
    expect(caddy).toMatch(/^http:\/\/:\{\$JASPAR_PORT:8080\} \{$/m);
    expect(caddy).toContain('\tbind {$JASPAR_BIND:""}');
  });

  it('compress every text type (nginx: also as its locations set them, with a charset)', () => {
    for (const type of COMPRESSED_TYPES) {
      expect(caddy).toContain(`header Content-Type ${type}*`);
      expect(apache).toContain(type);
    }
    const gzipTypes = /^gzip_types (.+);$/m.exec(nginx)![1];
    for (const rule of headerRules()) {
      const type = rule.values['Content-Type'];
      if (type !== undefined && type.split(';')[0] !== 'text/html') expect(gzipTypes, type).toContain(type.includes(';') ? `"${type}"` : type);
    }
    expect(caddy).toContain('encode zstd gzip {');
    expect(apache).toContain('AddOutputFilterByType BROTLI_COMPRESS;DEFLATE');
  });
});

describe('Cache-Control by file', () => {
  it.each([FLAT, SHARDED])('fixed for a matrix version\'s data and its logo, a release for the rest, revalidated for downloads (%o)', (layout) => {
    const { cache } = serverRouting({ prefix: '', layout, pageCount: 3, year: 2024 });
    const of = (file: string) => cache.find((c) => new RegExp(c.pattern).test(file))!.value;
    expect(of(`/${outputPath(detailDir(layout, 'MA0139.1'), 'json')}`)).toBe(CACHE_CONTROL.fixed);
    expect(of(`/${outputPath(detailDir(layout, 'MA0139.1'), 'meme')}`)).toBe(CACHE_CONTROL.fixed);
    expect(of(logoPath(layout, 'MA0139.1'))).toBe(CACHE_CONTROL.fixed);
    // The page for people changes with the site; a base id names the latest version; lists change with a release.
    expect(of(`/${outputPath(detailDir(layout, 'MA0139.1'), 'api')}`)).toBe(CACHE_CONTROL.release);
    expect(of(`/${outputPath(detailDir(layout, 'MA0139'), 'json')}`)).toBe(CACHE_CONTROL.release);
    expect(of(`/${outputPath(versionsDir(layout, 'MA0139'), 'json')}`)).toBe(CACHE_CONTROL.release);
    expect(of('/api/v1/matrix/page/2/index.json')).toBe(CACHE_CONTROL.release);
    expect(of('/static/search/index.json')).toBe(CACHE_CONTROL.release);
    expect(of('/download/jaspar-api-mirror.tar.gz')).toBe(CACHE_CONTROL.download);
    expect(of('/download/SHA256SUMS')).toBe(CACHE_CONTROL.download);
  });

  it('is set by one _headers rule at most for any path (Netlify would join the values)', () => {
    const withCache = headerRules().filter((r) => r.values['Cache-Control'] !== undefined);
    expect(withCache.map((r) => r.for)).toEqual(['/static/logos/svg/*']);
  });
});

describe('no match', () => {
  const r = serverRouting({ prefix: '', layout: FLAT, pageCount: 3, year: 2024 });
  const none = new RegExp(noMatchRegex(r));
  it.each([
    ['DL:::', true], [':martians::latest', true], ['::123456789:', true], ['CORE:plants::latest', true], [':::', true],
    // Spellings the service folds or ignores: their list may exist under another name.
    ['core:::', false], [':Plants::', false], ['::09606:', false], ['::9606,10090:', false], [':::foo', false],
  ])('%s: %s', (values, expected) => {
    expect(none.test(values)).toBe(expected);
  });
});
