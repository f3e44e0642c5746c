// toJson keeps the last body and the last results list it printed (a
// resource's json and jsonp files print one body, a list page's formats
// share their results): what it prints from them is what it would print
// afresh, whatever the order of the bodies.
import { describe, expect, it } from 'vitest';
import { toJson } from '../../generator/formats/json.ts';
import { PyFloat, type Json } from '../../generator/formats/types.ts';

/** JSON.stringify's text with PyFloats as Python prints them (whole ones with ".0"), as toJson writes them. */
const plain = (v: Json): string => JSON.stringify(v, (_k, x: unknown) => (x instanceof PyFloat ? `@${x.value}` : x)).replace(/"@(-?\d+)"/g, '$1.0').replace(/"@([^"]+)"/g, '$1');

describe('toJson', () => {
  const results: Json = [{ matrix_id: 'MA0001.1', name: 'AGL3' }, { matrix_id: 'MA0002.2', name: 'RUNX1' }];
  const page = (next: string | null): Json => ({ count: 2, next, previous: null, results });

  it('prints each body of a list page (shared results, its own links) as it would alone', () => {
    const json = page('http://x/?format=json&page=2');
    const jsonp = page('http://x/?format=jsonp&page=2');
    expect(toJson(json)).toBe(plain(json));
    expect(toJson(jsonp)).toBe(plain(jsonp));
    expect(toJson(json)).toBe(plain(json));
    // The results alone, and inside another object, after the pages that held them.
    expect(toJson(results)).toBe(plain(results));
    expect(toJson({ other: results, n: new PyFloat(4) })).toBe('{"other":[{"matrix_id":"MA0001.1","name":"AGL3"},{"matrix_id":"MA0002.2","name":"RUNX1"}],"n":4.0}');
  });

  it('prints the kept body pretty when asked, and an equal body of another object alike', () => {
    const body: Json = { matrix_id: 'MA0001.1', pfm: { A: [new PyFloat(1), new PyFloat(0.5)] } };
    const compact = toJson(body);
    expect(compact).toBe('{"matrix_id":"MA0001.1","pfm":{"A":[1.0,0.5]}}');
    expect(toJson(body, 4)).toBe('{\n    "matrix_id": "MA0001.1",\n    "pfm": {\n        "A": [\n            1.0,\n            0.5\n        ]\n    }\n}');
    expect(toJson(structuredClone({ matrix_id: 'MA0001.1', pfm: { A: [1, 0.5] } }))).toBe('{"matrix_id":"MA0001.1","pfm":{"A":[1,0.5]}}');
  });

  it('prints keys from its memo as JSON strings, escapes and line separators included', () => {
    const odd: Json = { 'a"b': 1, 'line\u2028sep': 2, 'é': 3 };
    expect(toJson(odd)).toBe('{"a\\"b":1,"line\\u2028sep":2,"é":3}');
    expect(toJson({ 'a"b': 4 })).toBe('{"a\\"b":4}');
  });
});
