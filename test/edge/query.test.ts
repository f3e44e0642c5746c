// Query strings and content negotiation as Django and DRF read and write
// them (the oracle grid checks the same against the real stack; these pin
// the corner cases).
import { describe, expect, it } from 'vitest';
import { negotiate } from '../../generator/edge/negotiate.ts';
import { MAX_QUERY_LENGTH, QueryTooLarge, lastValue, parseQuery, pyInt, quotePlus, rewriteQuery } from '../../generator/edge/query.ts';

describe('query strings as Django reads them', () => {
  it.each([
    ['a=1&b=2', [['a', '1'], ['b', '2']]],
    ['?a=1', [['a', '1']]],
    ['a+b=c+d', [['a b', 'c d']]],
    ['x&&y=', [['x', ''], ['y', '']]],
    ['a=%C3%A9', [['a', 'é']]],
    ['a=%FF', [['a', '\uFFFD']]],
    ['a=%2', [['a', '%2']]],
    ['a=b=c', [['a', 'b=c']]],
  ])('%s', (query, pairs) => {
    expect(parseQuery(query)).toEqual(pairs);
  });
  it('keeps the last value of a repeated key', () => {
    expect(lastValue(parseQuery('format=json&format=yaml'), 'format')).toBe('yaml');
  });
  it('refuses oversized queries', () => {
    expect(() => parseQuery(`a=${'x'.repeat(MAX_QUERY_LENGTH)}`)).toThrow(QueryTooLarge);
    expect(() => parseQuery(Array.from({ length: 40 }, (_, i) => `k${i}=1`).join('&'))).toThrow(QueryTooLarge);
  });
});

describe('links as DRF writes them', () => {
  it.each([
    ['format=json&page=2', 'page', '3', 'format=json&page=3'],
    ['page=2&format=json', 'page', null, 'format=json'],
    ['search=a b&order=-name,version&page=2', 'page', '3', 'order=-name%2Cversion&page=3&search=a+b'],
    ['x&z=%C3%A9&b=1&b=2', 'page', '2', 'b=1&b=2&page=2&x=&z=%C3%A9'],
    ['callback=cb&format=jsonp', 'page', '2', 'callback=cb&format=jsonp&page=2'],
    ['q=~_.-!*', 'page', null, 'q=~_.-%21%2A'],
  ])('%s with %s=%s', (query, key, value, written) => {
    expect(rewriteQuery(parseQuery(query), key, value)).toBe(written);
  });
  it('quotes as urllib.parse.quote_plus', () => {
    expect(quotePlus('Ahr::Arnt / x+y')).toBe('Ahr%3A%3AArnt+%2F+x%2By');
  });
});

describe("Python's int()", () => {
  it.each([['3', 3], [' 20 ', 20], ['+7', 7], ['-1', -1], ['1_000', 1000], ['1.0', null], ['abc', null], ['', null], ['1__0', null], ['_1', null]])('%j', (text, value) => {
    expect(pyInt(text)).toBe(value);
  });
});

describe('content negotiation as DRF', () => {
  it.each([
    [undefined, null, 'json'],
    [undefined, '*/*', 'json'],
    [undefined, 'text/meme', 'meme'],
    [undefined, 'TEXT/JASPAR', 'jaspar'],
    [undefined, 'text/*', 'jaspar'],
    [undefined, 'application/*', 'json'],
    [undefined, 'application/yaml', 'yaml'],
    [undefined, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'api'],
    [undefined, 'text/meme;q=0.1, application/json', 'json'],
    ['yaml', '*/*', 'yaml'],
    ['meme', 'text/meme', 'meme'],
  ])('format %s, Accept %s → %s', (format, accept, chosen) => {
    expect(negotiate(format, accept)).toEqual({ ok: true, format: chosen, withParams: false });
  });
  it.each([
    ['JSON', null, 404],
    ['xml', null, 404],
    [undefined, 'image/png', 406],
    ['json', 'text/html', 406],
    ['jaspar', 'application/json', 406],
  ])('format %s, Accept %s → %i', (format, accept, status) => {
    expect(negotiate(format, accept)).toEqual({ ok: false, status });
  });
});
