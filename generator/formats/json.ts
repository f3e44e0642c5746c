// JSON the way Django REST Framework writes it: compact (no spaces), UTF-8
// unescaped, floats as Python prints them. U+2028/2029 are escaped, as DRF
// does, so the text is also valid JavaScript (JSONP).
import { pyRepr } from '../dataset/numbers.ts';
import type { Matrix } from '../dataset/types.ts';
import { perItem } from './records.ts';
import { PyFloat, type Format, type Json, type Resource } from './types.ts';

export function toJson(value: Json, indent = 0): string {
  if (indent !== 0 || value === null || typeof value !== 'object') return write(value, indent, '');
  // The json and jsonp files of a resource print one body (a matrix's), or bodies that share their results
  // (a list page's, whose next and previous links name the format): the last compact body and the last
  // results list are kept, and printed once for both. A body is never changed once built (plan/resources.ts).
  if (value === lastBody.value) return lastBody.text;
  const text = write(value, 0, '');
  lastBody = { value, text };
  return text;
}

let lastBody: { value: Json; text: string } = { value: null, text: '' };
let lastList: { value: Json; text: string } = { value: null, text: '' };

/**
 * A list's or versions' body ({…, "results": [items]}, results last, one item a record shown) as write()
 * prints it, each item printed by item(record, item) at its depth (two indents) and the rest by shape()
 * (the api format links and escapes it; the item's text is already so); null for any other body.
 */
export function listJson(resource: Resource, indent: number, item: (m: Matrix, value: Json) => string, shape: (text: string) => string = (t) => t): string | null {
  const body = resource.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof PyFloat) return null;
  const results = body.results;
  if (!Array.isArray(results) || results.length === 0 || results.length !== resource.matrices.length) return null;
  let last = '';
  for (const key in body) last = key;
  if (last !== 'results') return null;
  // The body with no results ends "[]" and its close: the items go in their place.
  const tail = indent > 0 ? '\n}' : '}';
  const head = write({ ...body, results: [] }, indent, '');
  const pad = ' '.repeat(indent);
  const open = indent > 0 ? `\n${pad}${pad}` : '';
  const sep = indent > 0 ? `,\n${pad}${pad}` : ',';
  let text = `${shape(head.slice(0, head.length - 2 - tail.length))}[${open}${item(resource.matrices[0], results[0])}`;
  for (let i = 1; i < results.length; i++) text += sep + item(resource.matrices[i], results[i]);
  return `${text}${indent > 0 ? `\n${pad}` : ''}]${tail}`;
}

/** A list item in compact JSON, printed once per record (records.ts perItem). */
const compactItem = perItem((value) => write(value, 0, ''), 'json-item');

/** The json and jsonp formats' text: a list's items printed once per record. */
export const bodyJson = (resource: Resource): string => listJson(resource, 0, compactItem) ?? toJson(resource.body);

/** write() for the api format, which prints a list's items on their own (listJson). */
export const writeJson = (value: Json, indent: number, pad: string): string => write(value, indent, pad);

function write(value: Json, indent: number, pad: string): string {
  if (value === null) return 'null';
  if (value instanceof PyFloat) return pyRepr(value.value);
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as JSON`);
      return String(value);
    case 'string':
      return string(value);
  }
  // Loops and string concatenation, not map/join/entries: this writes every
  // JSON and JSONP file and the api pages' bodies (a tenth of the build's
  // rendering CPU with the arrays in between).
  const inner = indent > 0 ? pad + ' '.repeat(indent) : '';
  const open = indent > 0 ? '\n' + inner : '';
  const sep = indent > 0 ? ',\n' + inner : ',';
  const close = indent > 0 ? '\n' + pad : '';
  const colon = indent > 0 ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (indent === 0 && value === lastList.value) return lastList.text;
    let text = `[${open}${write(value[0], indent, inner)}`;
    for (let i = 1; i < value.length; i++) text += sep + write(value[i], indent, inner);
    text = `${text}${close}]`;
    if (indent === 0 && value.length > 1) lastList = { value, text };
    return text;
  }
  let text = '';
  for (const key in value) text += `${text === '' ? '{' + open : sep}${keyText(key)}${colon}${write(value[key], indent, inner)}`;
  return text === '' ? '{}' : `${text}${close}}`;
}

/** A JSON string; U+2028/2029 escaped (JSON.stringify leaves them). */
const string = (s: string) => {
  const text = JSON.stringify(s);
  return LINE_SEPARATORS.test(text) ? text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : text;
};
const LINE_SEPARATORS = /[\u2028\u2029]/;

/** A key as a JSON string: the same few dozen keys are on every record, kept printed (at most KEYS_KEPT of them). */
function keyText(key: string): string {
  let text = keys.get(key);
  if (text === undefined) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    keys.set(key, (text = string(key)));
  }
  return text;
}
const KEYS_KEPT = 1_000;
const keys = new Map<string, string>();

export const json: Format = {
  id: 'json',
  mediaType: 'application/json',
  extension: 'json',
  render: bodyJson,
};
