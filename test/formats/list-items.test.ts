// A list's items are printed once per record and reused on every page that
// shows the record (formats/records.ts perItem, json.ts listJson, yaml.ts):
// what a page prints from them is what it would print afresh, for seeded
// random items full of what JSON, YAML and HTML escape, when a record's item
// changes between pages, and when the results do not match the records.
// rebase() finds its attributes by indexOf: it replaces what its regex did.
import { describe, expect, it } from 'vitest';
import type { Matrix } from '../../generator/dataset/types.ts';
import { jsonWithLinks, rebase } from '../../generator/formats/api.ts';
import { json, listJson, toJson, writeJson } from '../../generator/formats/json.ts';
import { jsonp } from '../../generator/formats/jsonp.ts';
import { perItem } from '../../generator/formats/records.ts';
import type { FormatContext, Json, Resource } from '../../generator/formats/types.ts';
import { toYaml, yamlFormat } from '../../generator/formats/yaml.ts';
import { random } from '../support/random.ts';

const PIECES = ['MA0001.1', 'AGL3', 'CORE', 'http://x/api/v1/matrix/MA0001.1/', 'https://x/static/logos/svg/MA0001.1.svg', '"', "'", '<', '>', '&', '\\', ' ', ': ', '#', '\u2028', 'é', '1.5', 'null', 'yes', '\n'];
const text = (next: () => number): string => Array.from({ length: 1 + Math.floor(next() * 4) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');

/** Records are keys only (perItem's memo): plain objects stand for them. */
const records: Matrix[] = Array.from({ length: 12 }, (_, i) => ({ matrixId: `MA${i}` }) as unknown as Matrix);

function item(next: () => number, m: number): Json {
  const value: { [key: string]: Json } = { matrix_id: records[m].matrixId, name: text(next), collection: next() < 0.5 ? 'CORE' : text(next), base_id: `MA${m}`, version: String(1 + Math.floor(next() * 2)) };
  // Some items differ from the record's last in a key, a key's order or a nested value.
  if (next() < 0.1) value.extra = text(next);
  if (next() < 0.05) value.nested = { url: 'http://x/api/v1/' };
  value.sequence_logo = `http://x/static/logos/svg/MA${m}.svg`;
  value.url = next() < 0.5 ? `http://x/api/v1/matrix/MA${m}/` : text(next);
  return value;
}

function page(next: () => number): Resource {
  const shown = Array.from({ length: 1 + Math.floor(next() * 5) }, () => Math.floor(next() * records.length));
  const results = shown.map((m) => item(next, m));
  // Results that are not one a record shown (the index lists' bodies): printed whole.
  const matrices = next() < 0.1 ? shown.slice(1).map((m) => records[m]) : shown.map((m) => records[m]);
  return { kind: 'list', body: { count: 40, next: next() < 0.5 ? null : 'http://x/api/v1/matrix/?page=2', previous: null, results }, matrices, nav: { title: '', dir: '/', request: '', formats: [], breadcrumbs: [] } };
}

const context = {} as FormatContext;

describe('list items printed once per record', () => {
  const linked = perItem((value) => jsonWithLinks(writeJson(value, 4, ' '.repeat(8))));

  it('prints every page as the whole body would, over 2,000 seeded pages', () => {
    const next = random(22);
    for (let n = 0; n < 2_000; n++) {
      const resource = page(next);
      expect(json.render(resource, context)).toBe(toJson(resource.body));
      expect(jsonp.render(resource, context)).toBe(`callback(${toJson(resource.body)});`);
      expect(listJson(resource, 4, linked, jsonWithLinks) ?? jsonWithLinks(toJson(resource.body, 4))).toBe(jsonWithLinks(toJson(resource.body, 4)));
      expect(yamlFormat.render(resource, context)).toBe(toYaml(resource.body));
    }
  });

  it('prints an item again when the record shows another', () => {
    const shown = [records[0]];
    const resource = (name: string): Resource => ({ kind: 'list', body: { count: 1, results: [{ matrix_id: 'MA0', name }] }, matrices: shown, nav: { title: '', dir: '/', request: '', formats: [], breadcrumbs: [] } });
    expect(json.render(resource('AGL3'), context)).toBe('{"count":1,"results":[{"matrix_id":"MA0","name":"AGL3"}]}');
    expect(json.render(resource('RUNX1'), context)).toBe('{"count":1,"results":[{"matrix_id":"MA0","name":"RUNX1"}]}');
    expect(yamlFormat.render(resource('AGL3'), context)).toBe('count: 1\nresults:\n- matrix_id: MA0\n  name: AGL3\n');
    expect(yamlFormat.render(resource('yes'), context)).toBe("count: 1\nresults:\n- matrix_id: MA0\n  name: 'yes'\n");
  });

  it('rebases what the regex did, for seeded random pages of attributes', () => {
    const byRegex = (html: string, root: string) => html.replace(/ (href|src|action|data-dir|data-index|data-size-of)="\//g, (_, a: string) => ` ${a}="${root}/`);
    const parts = [' ', 'href', 'src', 'xhref', 'action', 'data-dir', 'data-index', 'data-size-of', 'data-x', '="/', '="', '=', '"', '/', '\n', '<a', ' href="/x"'];
    const next = random(7);
    for (let n = 0; n < 20_000; n++) {
      const html = Array.from({ length: Math.floor(next() * 12) }, () => parts[Math.floor(next() * parts.length)]).join('');
      expect(rebase(html, '/releases/2026')).toBe(byRegex(html, '/releases/2026'));
    }
    expect(rebase('<a href="/api/">', undefined)).toBe('<a href="/api/">');
  });
});
