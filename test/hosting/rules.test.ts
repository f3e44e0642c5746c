import { describe, expect, it } from 'vitest';
import { headerRules, printHeaders } from '../../generator/hosting/headers.ts';
import { RULE_BUDGET, errorFiles, placeholderClash, printRedirects, redirectRules, type RedirectRule } from '../../generator/hosting/rules.ts';
import { routingInput } from '../../generator/docs/api-extras.ts';
import { defaultPageCount } from '../../generator/plan/resources.ts';
import { chooseLayout } from '../../generator/routes/shard.ts';
import { syntheticMatrices } from '../../scripts/synthetic-release.ts';
import { sharedRelease } from '../support/release.ts';

describe('redirect rules', () => {
  const rules = redirectRules({ pageCount: 3, year: 2024 });
  const text = printRedirects(rules).split('\n');
  const at = (line: string) => {
    const index = text.indexOf(line);
    expect(index, line).toBeGreaterThan(0);
    return index;
  };

  it('answers the unfiltered list\'s pages with placeholders, page=last literally, before the rules without a page', () => {
    at('/api/v1/matrix page=:page format=jaspar /api/v1/matrix/page/:page/index.jaspar.txt 200!');
    at('/api/v1/matrix page=:page format=api /api/v1/matrix/page/:page/index.html 200!');
    at('/api/v1/matrix page=:page /api/v1/matrix/page/:page/index.json 200!');
    at('/api/v1/matrix /api/v1/matrix/page/1/index.json 200!');
    // page=last must win over the page placeholder, which must win over "format only".
    expect(at('/api/v1/matrix page=last format=yaml /api/v1/matrix/page/3/index.yaml 200!')).toBeLessThan(at('/api/v1/matrix page=:page format=yaml /api/v1/matrix/page/:page/index.yaml 200!'));
    expect(at('/api/v1/matrix page=last /api/v1/matrix/page/3/index.json 200!')).toBeLessThan(at('/api/v1/matrix page=:page /api/v1/matrix/page/:page/index.json 200!'));
    expect(at('/api/v1/matrix page=:page format=json /api/v1/matrix/page/:page/index.json 200!')).toBeLessThan(at('/api/v1/matrix format=json /api/v1/matrix/page/1/index.json 200!'));
    // An unknown format on the unfiltered list: an explicit 404 (netlify dev keeps a rule's status).
    expect(at('/api/v1/matrix page=:page format=:format /api/v1/errors/not-found.json 404!')).toBeLessThan(at('/api/v1/matrix page=:page /api/v1/matrix/page/:page/index.json 200!'));
    at('/api/v1/matrix format=:format /api/v1/errors/not-found.json 404!');
    // page_size=10 named: the same files.
    at('/api/v1/matrix page_size=10 page=:page format=meme /api/v1/matrix/page/:page/index.meme.txt 200!');
    expect(text.filter((l) => /page=[0-9]/.test(l))).toEqual([]);
  });

  it('answers filters and page sizes with placeholders, most parameters first', () => {
    // The text formats (index.<format>.txt) by one placeholder rule, page sizes by one placeholder (:size, not :page_size: see placeholderClash).
    const full = at('/api/v1/matrix collection=:collection tax_group=:tax_group version=:version page_size=:size page=:page format=:format /api/v1/matrix/collection/:collection/tax_group/:tax_group/version/:version/page_size/:size/page/:page/index.:format.txt 200!');
    const one = at('/api/v1/matrix collection=:collection page_size=:size page=:page format=:format /api/v1/matrix/collection/:collection/page_size/:size/page/:page/index.:format.txt 200!');
    expect(full).toBeLessThan(one);
    expect(one).toBeLessThan(at('/api/v1/matrix page_size=:size page=:page format=:format /api/v1/matrix/page_size/:size/page/:page/index.:format.txt 200!'));
    // Formats whose file is not index.<format>.txt before that placeholder.
    expect(at('/api/v1/matrix page_size=:size page=:page format=yaml /api/v1/matrix/page_size/:size/page/:page/index.yaml 200!')).toBeLessThan(at('/api/v1/matrix page_size=:size page=:page format=:format /api/v1/matrix/page_size/:size/page/:page/index.:format.txt 200!'));
    at('/api/v1/matrix tax_id=:tax_id version=:version /api/v1/matrix/tax_id/:tax_id/version/:version/page/1/index.json 200!');
    at('/api/v1/species/:tax_id page_size=:size page=:page /api/v1/matrix/tax_id/:tax_id/page_size/:size/page/:page/index.json 200!');
    at('/api/v1/collections/:collection page_size=:size page=:page /api/v1/matrix/collection/:collection/page_size/:size/page/:page/index.json 200!');
    at('/api/v1/species page_size=:size page=:page format=yaml /api/v1/species/page_size/:size/page/:page/index.yaml 200!');
    // No rule names release=2024: it is ignored like any parameter the rules do not name.
    expect(text.filter((l) => l.includes('release=2024'))).toEqual([]);
  });

  it('answers what it cannot answer with explicit errors before any data', () => {
    const firstData = text.findIndex((l) => l.startsWith('/api/v1/matrix ') && l.endsWith(' 200!'));
    for (const param of ['search', 'order', 'name', 'tf_class', 'tf_family', 'data_type']) {
      expect(at(`/api/v1/:endpoint ${param}=:value /api/v1/errors/unsupported/param-${param}.json 501!`)).toBeLessThan(firstData);
      at(`/api/v1/taxon/:tax_group ${param}=:value /api/v1/errors/unsupported/param-${param}.json 501!`);
    }
    expect(at('/api/v1/matrix collection=:collection tax_id=:tax_id /api/v1/errors/unsupported/filters.json 501!')).toBeLessThan(firstData);
    expect(at('/api/v1/matrix tax_group=:tax_group tax_id=:tax_id /api/v1/errors/unsupported/filters.json 501!')).toBeLessThan(firstData);
    // Another JASPAR release: one literal rule per year, none for the mirrored one.
    for (const year of [2018, 2022, 2026]) {
      expect(at(`/api/v1/:endpoint release=${year} /api/v1/errors/unsupported/release.json 501!`)).toBeLessThan(firstData);
      at(`/api/v1/collections/:collection release=${year} /api/v1/errors/unsupported/release.json 501!`);
    }
    at('/api/v1/sites/:id format=api /api/v1/errors/unsupported/sites-format.json 501!');
  });

  it('redirects page sizes above 1000 on the matrix list to 1000, keeping every parameter it names', () => {
    at('/api/v1/matrix collection=:collection page_size=5000 page=:page format=:format /api/v1/matrix/?collection=:collection&format=:format&page=:page&page_size=1000 301!');
    at('/api/v1/matrix page_size=10000 /api/v1/matrix/?page_size=1000 301!');
    // Before the page size placeholder, which names the same parameters.
    expect(at('/api/v1/matrix tax_group=:tax_group page_size=2000 page=:page /api/v1/matrix/?page=:page&page_size=1000&tax_group=:tax_group 301!'))
      .toBeLessThan(at('/api/v1/matrix tax_group=:tax_group page_size=:size page=:page /api/v1/matrix/tax_group/:tax_group/page_size/:size/page/:page/index.json 200!'));
  });

  it('routes ids with placeholders and keeps files whose names a placeholder would take', () => {
    at('/api/v1/matrix/:id /api/v1/matrix/:id/index.json 200!');
    at('/api/v1/matrix/:id/versions /api/v1/matrix/:id/versions/index.json 200!');
    at('/api/v1/matrix/:id format=meme /api/v1/matrix/:id/index.meme.txt 200!');
    at('/api/v1/sites/:id format=bed /api/v1/sites/:id/index.bed.txt 200!');
    at('/api/v1/releases/:key format=yaml /api/v1/releases/:key/index.yaml 200!');
    expect(at('/api/v1/collections/index.json /api/v1/collections/index.json 200!')).toBeLessThan(at('/api/v1/collections/:collection /api/v1/matrix/collection/:collection/page/1/index.json 200!'));
    expect(at('/api/v1/matrix/index.html /api/v1/matrix/index.html 200!')).toBeLessThan(at('/api/v1/matrix/:id /api/v1/matrix/:id/index.json 200!'));
    expect(text[text.length - 2]).toBe('/api/v1/* /api/v1/errors/not-found.json 404');
  });

  it('does not grow with the list', () => {
    const big = redirectRules({ pageCount: 5278, year: 2024 });
    expect(big.length).toBe(rules.length);
    expect(printRedirects(big)).toContain('/api/v1/matrix page=:page format=meme /api/v1/matrix/page/:page/index.meme.txt 200!');
    expect(printRedirects(big)).toContain('/api/v1/matrix page=last format=meme /api/v1/matrix/page/5278/index.meme.txt 200!');
  });

  // A model of Netlify's matching (path, then every named parameter present
  // with the literal value or any value for a placeholder; first match wins),
  // checked on netlify dev by the e2e suites: the request each list rule is
  // for must reach that rule, not an earlier one that ignores a parameter.
  it('answers each list rule\'s own request with that rule (first match)', () => {
    // Placeholder values no literal rule names (a literal value is its own rule's request).
    const sample: Record<string, string> = { ':page': '7', ':size': '250', ':format': 'xml', ':value': 'x' };
    const matches = (rule: RedirectRule, from: string, query: Record<string, string>) =>
      rule.from === from && Object.entries(rule.query ?? {}).every(([k, v]) => k in query && (v.startsWith(':') || v === query[k]));
    const wrong: string[] = [];
    for (const rule of rules) {
      if (!rule.query || !rule.force || rule.from.includes('*')) continue;
      const query = Object.fromEntries(Object.entries(rule.query).map(([k, v]) => [k, sample[v] ?? (v.startsWith(':') ? 'X' : v)]));
      const first = rules.find((r) => matches(r, rule.from, query));
      if (first !== rule) wrong.push(`${printRedirects([rule]).split('\n')[1]} ← answered by ${printRedirects([first!]).split('\n')[1]}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the rule budget (Netlify: best under 1,000 rules)', () => {
  const release = sharedRelease();
  // With JASPAR 2026 beside it under /releases/2026/ (its query URLs there are refused without the edge function: rules of their own).
  const count = (matrices: typeof release.matrices) => {
    const scaled = { ...release, matrices };
    const layout = chooseLayout({ matrixIds: matrices.map((m) => m.matrixId), baseIds: [...new Set(matrices.map((m) => m.baseId))] });
    const input = routingInput(scaled, defaultPageCount(scaled), layout, undefined, [{ year: 2026, prefix: '/releases/2026' }]);
    return { layout, shards: input.shards ?? [], rules: redirectRules(input) };
  };

  it('holds for the JASPAR 2024 release with 2026 beside it', () => {
    const { layout, rules } = count(release.matrices);
    expect(layout.idFolders).toBe(false);
    expect(rules.length).toBeLessThanOrEqual(RULE_BUDGET);
    // release=2026 says where 2026 is answered; a query URL under /releases/2026/api/ never gets the folder's page.
    const text = printRedirects(rules);
    expect(text).toContain('/api/v1/:endpoint release=2026 /api/v1/errors/unsupported/release-2026.json 501!');
    expect(text).toContain('/releases/2026/api/v1/* format=:value /api/v1/errors/unsupported/release-2026.json 501!');
    expect(text).toContain('/api/v1/:endpoint release=2022 /api/v1/errors/unsupported/release.json 501!');
  });

  it('holds for the synthetic release ten times larger, sharded', () => {
    const { layout, shards, rules } = count(syntheticMatrices(release.matrices, 10));
    expect(layout.idFolders).toBe(true);
    expect(shards.length).toBeGreaterThan(1);
    expect(rules.length).toBeLessThanOrEqual(RULE_BUDGET);
    // One set of id rules per shard, each reaching the shard's folders.
    for (const shard of shards) expect(printRedirects(rules)).toContain(`/api/v1/matrix/${shard}* /api/v1/matrix/${shard}/${shard}:splat/index.json 200!`);
  });
});

describe('placeholders', () => {
  it('never start with one another in one rule (Netlify fills :page_size as :page + "_size")', () => {
    expect(placeholderClash({ from: '/a', query: { page: ':page', page_size: ':page_size' }, to: '/a/:page_size/:page/', status: 200, force: true })).toBe(':page and :page_size');
    expect(placeholderClash({ from: '/a/:id', query: { page: ':page', page_size: ':size' }, to: '/a/:size/:page/', status: 200, force: true })).toBeUndefined();
    const layout = { idFolders: true, logos: true, shard: 2 };
    for (const rule of redirectRules({ pageCount: 9, year: 2024, layout, shards: ['MA', 'UN'], root: '/jaspar' })) expect(placeholderClash(rule)).toBeUndefined();
  });
});

describe('redirect rules of a sharded layout', () => {
  const layout = { idFolders: true, logos: true, shard: 2 };
  const text = printRedirects(redirectRules({ pageCount: 5278, year: 2024, layout, shards: ['ZA', 'ZB'] })).split('\n');

  it('match each shard by its prefix and never pass a placeholder through the shard function', () => {
    expect(text.filter((l) => l.includes(':id/:id') || l.includes('/:i/'))).toEqual([]);
    expect(text.filter((l) => l.startsWith('/api/v1/matrix/:id'))).toEqual([]);
    expect(text).toContain('/api/v1/matrix/ZA* format=meme /api/v1/matrix/ZA/ZA:splat/index.meme.txt 200!');
    expect(text).toContain('/api/v1/matrix/ZB* /api/v1/matrix/ZB/ZB:splat/index.json 200!');
    // The shard folder's own files (path URLs) first, as they are.
    expect(text.indexOf('/api/v1/matrix/ZA/* /api/v1/matrix/ZA/:splat 200!')).toBeLessThan(text.indexOf('/api/v1/matrix/ZA* /api/v1/matrix/ZA/ZA:splat/index.json 200!'));
  });
});

describe('redirect rules of a site under a path', () => {
  const text = printRedirects(redirectRules({ pageCount: 3, year: 2024, root: '/jaspar' })).split('\n').slice(1, -1);

  it('start every from and every path target with it', () => {
    for (const line of text) {
      const [from, ...rest] = line.split(' ');
      expect(from.startsWith('/jaspar/api/v1'), line).toBe(true);
      expect(rest[rest.length - 2].startsWith('/jaspar/api/v1/'), line).toBe(true);
    }
    expect(text).toContain('/jaspar/api/v1/matrix page=:page format=jaspar /jaspar/api/v1/matrix/page/:page/index.jaspar.txt 200!');
    expect(text).toContain('/jaspar/api/v1/matrix collection=:collection page_size=5000 /jaspar/api/v1/matrix/?collection=:collection&page_size=1000 301!');
  });
});

describe('error bodies', () => {
  it('say what is not supported and what is', () => {
    const files = new Map(errorFiles({ year: 2024 }));
    expect(JSON.parse(files.get('/api/v1/errors/unsupported/param-search.json')!).detail).toMatch(/cannot answer the parameter "search".*Supported: format, page, page_size \(10, 25, 50, 100, 250, 500, 1000/);
    expect(JSON.parse(files.get('/api/v1/errors/unsupported/release.json')!).detail).toBe('This static mirror serves JASPAR release 2024 only (release=2024).');
    for (const body of files.values()) expect(Object.keys(JSON.parse(body))).toEqual(['detail']);
  });

  it('name every release a site of several holds, and the path URLs of another release where no edge function runs', () => {
    const files = new Map(errorFiles({ year: 2024, held: [{ year: 2026, prefix: '/releases/2026' }] }));
    expect(JSON.parse(files.get('/api/v1/errors/unsupported/release.json')!).detail).toBe('This static mirror serves JASPAR releases 2024 and 2026 only (release=2024, release=2026).');
    expect(JSON.parse(files.get('/api/v1/errors/unsupported/release-2026.json')!).detail).toMatch(/^JASPAR 2026 is answered here by its path URLs under \/releases\/2026\/ .*need the edge function/);
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
