// The safe headers as data: one rule for every file, a policy that names
// only this site, and netlify.toml free of headers, so that _headers (which
// travels with the built folder) is the single source. Netlify's engine and
// Chromium check the same headers end to end in test/e2e/security-headers.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, headerRules, printHeaders } from '../../generator/hosting/headers.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const directives = (policy: string) => new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

describe('security headers', () => {
  const rules = headerRules();

  it('go with every file, in one rule, before the path-specific ones', () => {
    expect(rules[0]).toEqual({ for: '/*', values: SECURITY_HEADERS });
    expect(SECURITY_HEADERS).toEqual({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    const text = printHeaders(rules);
    expect(text).toContain(`\n/*\n  Content-Security-Policy: ${CONTENT_SECURITY_POLICY}\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n  X-Frame-Options: DENY\n`);
  });

  it('never set one header twice for a path (Netlify would join the values)', () => {
    const names = rules.flatMap((r) => Object.keys(r.values).map((k) => k.toLowerCase()));
    for (const name of Object.keys(SECURITY_HEADERS)) expect(names.filter((n) => n === name.toLowerCase())).toHaveLength(1);
  });

  it('allow only this site: no other host, no inline script or style, no eval, no framing', () => {
    const d = directives(CONTENT_SECURITY_POLICY);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('img-src')).toEqual(["'self'", 'data:']);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('form-action')).toEqual(["'self'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    const sources = [...d.values()].flat();
    expect(sources.filter((s) => !["'self'", "'none'", 'data:'].includes(s))).toEqual([]);
  });

  it('keep the API, logos and BED files fetchable from any origin', () => {
    for (const prefix of ['/api/*', '/static/*', '/download/*']) {
      expect(rules.find((r) => r.for === prefix)?.values['Access-Control-Allow-Origin']).toBe('*');
    }
  });

  it('are not in netlify.toml as well: _headers is the one source', () => {
    const toml = readFileSync(path.join(PROJECT_ROOT, 'netlify.toml'), 'utf8');
    expect(toml).not.toMatch(/^\s*\[\[headers\]\]/m);
  });
});
