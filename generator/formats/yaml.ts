// YAML as djangorestframework-yaml writes it (PyYAML): block style, keys
// sorted at every level, sequences not indented under their key, strings
// that look like numbers quoted ('1'), floats as Python prints them.
import yaml from 'js-yaml';
import { pyRepr } from '../dataset/numbers.ts';
import type { Matrix } from '../dataset/types.ts';
import { perItem } from './records.ts';
import { PyFloat, type Format, type Json } from './types.ts';

// This type replaces js-yaml's float type (same tag), so it must also read
// floats as that one does: the dumper quotes a string exactly when a reader
// would take it for a float ('1.5', '1e3', '.inf'), and a name or annotation
// that looks like a number stays a string.
// (js-yaml 4 exports its types; @types/js-yaml does not declare them.)
const jsYamlFloat = (yaml as unknown as { types: { float: { resolve: (data: string) => boolean; construct: (data: string) => number } } }).types.float;
const pyFloatType = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: jsYamlFloat.resolve,
  construct: jsYamlFloat.construct,
  instanceOf: PyFloat,
  // PyYAML's represent_float: repr(), then ".0" before an exponent without a
  // dot ("1e-05" → "1.0e-05"), which YAML 1.1 would otherwise read as a string.
  represent: (value) => pyFloatText(value as PyFloat),
});

function pyFloatText(value: PyFloat): string {
  const text = pyRepr(value.value);
  return text.includes('.') || !text.includes('e') ? text : text.replace('e', '.0e');
}

const schema = yaml.DEFAULT_SCHEMA.extend({ implicit: [pyFloatType] });

const OPTIONS: yaml.DumpOptions = { schema, sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true };

/** The value in YAML; shown: the records a list's or versions' results show, one an item, whose items are printed once per record. */
export function toYaml(value: Json, shown?: readonly Matrix[]): string {
  try {
    const text = node(value, 0, true, false, shown);
    return text === '' ? text : `${text}\n`;
  } catch (error) {
    if (error !== UNUSUAL) throw error;
    return yaml.dump(value, OPTIONS);
  }
}

/** js-yaml's own dump, for tests that hold toYaml to it. */
export const jsYamlDump = (value: Json): string => yaml.dump(value, OPTIONS);

// js-yaml's dumper, for the values and options above, written out: it
// chooses a type for every node by trying each of the schema's types in
// turn, and tests every string against every implicit type; this writes
// a site's YAML files in a fifth of the time (measured on the shipped
// site: 4.0 of 89 s of a one-thread build's profile were js-yaml's dump). The structure is
// written here (block mappings with sorted keys, block sequences not indented
// under their key, "- " compact items, {} and [] when empty), and so are the
// scalars whose text is sure: null, booleans, whole numbers, PyFloats and
// strings that are plain for certain. Every other string without a line
// break is js-yaml's (the same text at any depth); a string with a line
// break (a block scalar, indented by its depth), a key over 1,024
// characters (an explicit "? " key) or a value js-yaml refuses makes the
// whole value js-yaml's. test/formats/yaml-writer.test.ts holds both to the
// same bytes.
const UNUSUAL = new Error('a value for js-yaml itself');

const line = (level: number): string => `\n${'  '.repeat(level)}`;

/** writeNode of js-yaml (flowLevel -1, indent 2, no refs): a node at level; compact: its first line continues the line before. */
function node(value: Json, level: number, compact: boolean, inSequence: boolean, shown?: readonly Matrix[]): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isInteger(value) && !Object.is(value, -0)) return value.toString(10);
      throw UNUSUAL;
    case 'string':
      return scalar(value);
    case 'object':
      break;
    default:
      throw UNUSUAL;
  }
  if (value instanceof PyFloat) return pyFloatText(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // noArrayIndent: a sequence that is a mapping's value is written at its key's level.
    const at = inSequence || level === 0 ? level : level - 1;
    let text = '';
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (item === undefined) throw UNUSUAL;
      // A list's item at the top level's results (at 0), printed once per record: a record is on dozens of list pages.
      const dump = shown !== undefined && at === 0 ? topItem(shown[i], item) : node(item, at + 1, true, true);
      if (!compact || text !== '') text += line(at);
      text += dump.charCodeAt(0) === 10 ? `-${dump}` : `- ${dump}`;
    }
    return text;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) throw UNUSUAL;
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return '{}';
  let text = '';
  for (const key of keys) {
    const item = value[key];
    if (item === undefined) throw UNUSUAL;
    const name = scalar(key);
    if (name.length > 1024) throw UNUSUAL;
    const dump = node(item, level + 1, false, false, level === 0 && key === 'results' && Array.isArray(item) && item.length === shown?.length ? shown : undefined);
    if (!compact || text !== '') text += line(level);
    text += dump.charCodeAt(0) === 10 ? `${name}:${dump}` : `${name}: ${dump}`;
  }
  return text;
}

/** A list's item at the top level's results (a sequence at level 0), kept per record (records.ts perItem). */
const topItem = perItem((item) => node(item, 1, true, true), 'yaml-item');

/**
 * A string as js-yaml writes it outside flow style: plain when sure (an
 * ASCII letter first, printable ASCII after, no "#", no ": " or ":" last,
 * not a space last, and not a word another type reads: null, true, no…),
 * else js-yaml's own choice (plain, quoted or double-quoted: the same at
 * any depth for a string without a line break).
 */
function scalar(text: string): string {
  if (SURE_PLAIN.test(text) && !AMBIGUOUS.has(text)) return text;
  if (text.includes('\n')) throw UNUSUAL;
  let dump = quoted.get(text);
  if (dump === undefined) {
    if (quoted.size >= QUOTED_KEPT) quoted.clear();
    quoted.set(text, (dump = yaml.dump(text, OPTIONS).slice(0, -1)));
  }
  return dump;
}

const SURE_PLAIN = /^[A-Za-z](?:[\x20-\x22\x24-\x39\x3b-\x7e]|:(?=[\x21-\x22\x24-\x7e]))*(?<! )$/;
/** Letter-first strings another type (or YAML 1.1's booleans, which js-yaml quotes) would read. */
const AMBIGUOUS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF']);
/** Strings js-yaml chose for, kept (the same pubmed ids, species and citations on many pages): at most this many. */
const QUOTED_KEPT = 10_000;
const quoted = new Map<string, string>();

export const yamlFormat: Format = {
  id: 'yaml',
  mediaType: 'application/yaml; charset=utf-8',
  extension: 'yaml',
  render: (resource) => toYaml(resource.body, resource.matrices),
};
