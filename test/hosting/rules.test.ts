import { describe, expect, it } from 'vitest';
import { headerRules, printHeaders } from '../../generator/hosting/headers.ts';
import { printRedirects, redirectRules } from '../../generator/hosting/rules.ts';

const ids = { matrixIds: ['MA0004.1', 'MA0004.2'], baseIds: ['MA0004'] };

describe('redirect rules', () => {
  const rules = redirectRules(3, ids);

  it('has one literal rule per (format, page) and per page, before the placeholders that answer errors', () => {
    const text = printRedirects(rules).split('\n');
    expect(text).toContain('/api/v1/matrix format=jaspar page=3 /api/v1/matrix/page/3/index.jaspar.txt 200!');
    expect(text).toContain('/api/v1/matrix format=api page=1 /api/v1/matrix/page/1/index.html 200!');
    expect(text).toContain('/api/v1/matrix page=2 /api/v1/matrix/page/2/index.json 200!');
    expect(text).toContain('/api/v1/matrix format=json page=:page /api/v1/errors/invalid-page.json 404!');
    expect(text).toContain('/api/v1/matrix format=:format /api/v1/errors/not-found.json 404!');
    expect(text).toContain('/api/v1/matrix /api/v1/matrix/page/1/index.json 200!');
    expect(text).toContain('/api/v1/matrix format=yaml page=last /api/v1/matrix/page/3/index.yaml 200!');
    expect(text).toContain('/api/v1/matrix page=last /api/v1/matrix/page/3/index.json 200!');
    expect(text).toContain('/api/v1/matrix/MA0004.2 /api/v1/matrix/MA0004.2/index.json 200!');
    expect(text).toContain('/api/v1/matrix/MA0004/versions /api/v1/matrix/MA0004/versions/index.json 200!');
    expect(text).toContain('/api/v1/matrix/:id format=meme /api/v1/matrix/:id/index.meme.txt 200!');
    expect(text[text.length - 2]).toBe('/api/v1/* /api/v1/errors/not-found.json 404');
    const at = (line: string) => text.indexOf(line);
    // A literal page must win over the invalid-page placeholder, which must win over "format only".
    expect(at('/api/v1/matrix format=json page=3 /api/v1/matrix/page/3/index.json 200!')).toBeLessThan(at('/api/v1/matrix format=json page=:page /api/v1/errors/invalid-page.json 404!'));
    expect(at('/api/v1/matrix format=json page=:page /api/v1/errors/invalid-page.json 404!')).toBeLessThan(at('/api/v1/matrix format=json /api/v1/matrix/page/1/index.json 200!'));
    expect(at('/api/v1/matrix format=:format /api/v1/errors/not-found.json 404!')).toBeLessThan(at('/api/v1/matrix page=1 /api/v1/matrix/page/1/index.json 200!'));
  });

  it('counts 10 rules per page plus a fixed set (page=last included) plus one per id', () => {
    expect(rules.length).toBe(10 * 3 + 9 + 9 + 9 + 1 + 1 + 1 + 1 + 2 * 10 + 1 + 3 + 1);
  });
});

describe('header rules', () => {
  it('send the real Content-Type of each format, Vary and CORS', () => {
    const text = printHeaders(headerRules());
    expect(text).toContain('/api/*\n  Access-Control-Allow-Origin: *\n  Vary: Accept\n');
    expect(text).toContain('/api/*/index.jaspar.txt\n  Content-Type: text/jaspar; charset=utf-8\n');
    expect(text).toContain('/api/*/index.meme.txt\n  Content-Type: text/meme; charset=utf-8\n');
    expect(text).toContain('/api/*/index.transfac.txt\n  Content-Type: text/transfac; charset=utf-8\n');
    expect(text).toContain('/api/*/index.pfm.txt\n  Content-Type: text/pfm; charset=utf-8\n');
    expect(text).toContain('/api/*/index.js\n  Content-Type: application/javascript; charset=utf-8\n');
    expect(text).toContain('/api/*/index.yaml\n  Content-Type: application/yaml; charset=utf-8\n');
    expect(text).toContain('/api/*/index.json\n  Content-Type: application/json\n');
  });
});
