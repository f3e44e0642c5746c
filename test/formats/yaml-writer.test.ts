// toYaml writes what js-yaml would (formats/yaml.ts writes the structure
// and the scalars it is sure of itself, and asks js-yaml for the rest): the
// same bytes, or the same refusal, for seeded random values full of what
// YAML treats specially, and for every annotation of the shared release.
import { describe, expect, it } from 'vitest';
import { jsYamlDump, toYaml } from '../../generator/formats/yaml.ts';
import { PyFloat, type Json } from '../../generator/formats/types.ts';
import { sharedRelease } from '../support/release.ts';
import { random } from '../support/random.ts';

// Characters and words YAML reads specially: indicators, quotes, spaces, line breaks, a tab, non-ASCII,
// a lone surrogate, the YAML 1.1 booleans and words that other types read.
const CHARS = ['a', 'Z', 'k', '0', '7', ' ', ':', '#', '-', '?', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '.', '/', '_', '\n', '\t', '\r', 'é', 'ö', '\u2028', '\ufeff', '\ud800', '😀', '~', '=', '+', '<'];
const WORDS = ['null', 'Null', '~', 'true', 'False', 'yes', 'No', 'on', 'OFF', 'y', 'n', '1', '1.5', '1e3', '.inf', '.NaN', '0x1F', '0o17', '1:30', '2024-01-02', '<<', '', ' ', 'a: b', 'a #b', 'a#b', 'a:', 'a:b', 'a ', 'http://x/y?format=yaml&page=2', 'CORE', 'MA0001.1', 'Homo sapiens', "O'Brien", '41325984'];

function text(next: () => number): string {
  if (next() < 0.3) return WORDS[Math.floor(next() * WORDS.length)];
  const length = Math.floor(next() * 8);
  let s = next() < 0.5 ? 'ab' : '';
  for (let i = 0; i < length; i++) s += CHARS[Math.floor(next() * CHARS.length)];
  return s;
}

function value(next: () => number, depth: number): Json {
  const r = next();
  if (depth > 3 || r < 0.45) {
    const s = next();
    if (s < 0.5) return text(next);
    if (s < 0.6) return null;
    if (s < 0.65) return next() < 0.5;
    if (s < 0.8) return [0, -1, 42, 1e21, 2 ** 53, -0, 0.5, NaN][Math.floor(next() * 8)];
    return new PyFloat([0, 1, -2.5, 1e-5, 1e16, 0.1, 1 / 3, -0][Math.floor(next() * 8)]);
  }
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const o: { [key: string]: Json } = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) o[text(next)] = value(next, depth + 1);
  return o;
}

/** Both writers' answer: the text, or the error's message. */
const answer = (write: (v: Json) => string, v: Json): string => {
  try {
    return write(v);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
};

describe('toYaml', () => {
  it('writes what js-yaml writes, or refuses what it refuses, for 5,000 random values', () => {
    const next = random(22);
    let refused = 0;
    for (let i = 0; i < 5_000; i++) {
      const v = value(next, 0);
      const expected = answer(jsYamlDump, v);
      if (expected.startsWith('refused: ')) refused++;
      expect(answer(toYaml, v), JSON.stringify(v)).toBe(expected);
    }
    // The cases cover refusals (a number js-yaml has no type for) and answers alike.
    expect(refused).toBeGreaterThan(100);
    expect(refused).toBeLessThan(4_000);
  });

  it('writes every annotation of the release as js-yaml does, as keys and as values at every depth', () => {
    for (const m of sharedRelease().matrices) {
      const strings = [m.matrixId, m.name, m.collection, m.taxGroup, m.source, m.comment, m.dataType, ...m.tfClass, ...m.tfFamily, ...m.uniprotIds, ...m.pubmedIds, ...m.species.map((s) => s.name)];
      const v: Json = { results: [{ strings, nested: Object.fromEntries(strings.map((s) => [s, [s, { [s]: s }]])) }], count: strings.length };
      expect(toYaml(v), m.matrixId).toBe(jsYamlDump(v));
    }
  });

  it('writes the structure js-yaml writes: empty containers, sequences in sequences, mappings in sequences', () => {
    const v: Json = { a: [], b: {}, c: [[1, [2]], [], [{}], [{ x: [null] }]], d: { e: { f: [true, false] } }, '': 'empty key', 'z z': [[['deep']]] };
    expect(toYaml(v)).toBe(jsYamlDump(v));
    expect(toYaml([])).toBe(jsYamlDump([]));
    expect(toYaml({})).toBe(jsYamlDump({}));
    expect(toYaml('x')).toBe(jsYamlDump('x'));
  });
});
