// JSON the way Django REST Framework writes it: compact (no spaces), UTF-8
// unescaped, floats as Python prints them. U+2028/2029 are escaped, as DRF
// does, so the text is also valid JavaScript (JSONP).
import { pyRepr } from '../dataset/numbers.ts';
import { PyFloat, type Format, type Json } from './types.ts';

export function toJson(value: Json, indent = 0): string {
  return write(value, indent, '');
}

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
      return JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  }
  const inner = indent > 0 ? pad + ' '.repeat(indent) : '';
  const open = indent > 0 ? '\n' + inner : '';
  const sep = indent > 0 ? ',\n' + inner : ',';
  const close = indent > 0 ? '\n' + pad : '';
  const colon = indent > 0 ? ': ' : ':';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[${open}${value.map((v) => write(v, indent, inner)).join(sep)}${close}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{${open}${entries.map(([k, v]) => `${write(k, 0, '')}${colon}${write(v, indent, inner)}`).join(sep)}${close}}`;
}

export const json: Format = {
  id: 'json',
  mediaType: 'application/json',
  extension: 'json',
  render: (resource) => toJson(resource.body),
};
