// A strict JSON reader (RFC 8259) for release files. JSON.parse keeps the
// last of two equal keys without a word, turns a 400-digit number into
// Infinity, gives no line, and fails with a bare RangeError on deep
// nesting; this reader keeps each value's line and a number's own text,
// reports every repeated key and stops at a fixed depth.

export type JsonNode =
  /** keyLines: the line of each key (the first, for a key written twice). */
  | { type: 'object'; line: number; entries: Map<string, JsonNode>; keyLines: Map<string, number> }
  | { type: 'array'; line: number; items: JsonNode[] }
  | { type: 'string'; line: number; value: string }
  /** raw: the number as written, so that its exact value can be checked. */
  | { type: 'number'; line: number; raw: string }
  | { type: 'literal'; line: number; value: true | false | null };

/** A key written twice in one object: the second is on line, the first on first. */
export interface DuplicateKey {
  key: string;
  line: number;
  first: number;
}

export type JsonResult = { ok: true; root: JsonNode; duplicates: DuplicateKey[] } | { ok: false; line: number; message: string };

/** Deeper than any release file needs (pfm_noninteger.json nests 4 levels). */
export const MAX_DEPTH = 64;

class JsonError {
  constructor(readonly offset: number, readonly message: string) {}
}

export function parseJson(text: string): JsonResult {
  let i = 0;
  let line = 1;
  const duplicates: DuplicateKey[] = [];
  const fail = (message: string): never => {
    throw new JsonError(i, message);
  };
  const space = () => {
    for (;;) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') return;
      i++;
    }
  };
  const string = (): string => {
    i++;
    let out = '';
    let from = i;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c < ' ') fail('control character in a string (escape it)');
      if (c === '"') break;
      if (c === '\\') {
        out += text.slice(from, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const named: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          if (e === undefined || !(e in named)) fail('bad escape in a string');
          out += named[e];
          i += 2;
        }
        from = i;
        continue;
      }
      i++;
    }
    out += text.slice(from, i);
    i++;
    return out;
  };
  const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  const value = (depth: number): JsonNode => {
    space();
    const at = line;
    const c = text[i];
    if (c === '"') return { type: 'string', line: at, value: string() };
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH} levels`);
      i++;
      if (c === '[') {
        const items: JsonNode[] = [];
        space();
        if (text[i] === ']') {
          i++;
          return { type: 'array', line: at, items };
        }
        for (;;) {
          items.push(value(depth + 1));
          space();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] !== ']') fail('expected "," or "]"');
          i++;
          return { type: 'array', line: at, items };
        }
      }
      const entries = new Map<string, JsonNode>();
      const firstLine = new Map<string, number>();
      space();
      if (text[i] === '}') {
        i++;
        return { type: 'object', line: at, entries, keyLines: firstLine };
      }
      for (;;) {
        space();
        if (text[i] !== '"') fail('expected a key in double quotes');
        const keyLine = line;
        const key = string();
        space();
        if (text[i] !== ':') fail('expected ":" after a key');
        i++;
        const v = value(depth + 1);
        const first = firstLine.get(key);
        if (first !== undefined) duplicates.push({ key, line: keyLine, first });
        else {
          firstLine.set(key, keyLine);
          entries.set(key, v);
        }
        space();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] !== '}') fail('expected "," or "}"');
        i++;
        return { type: 'object', line: at, entries, keyLines: firstLine };
      }
    }
    for (const word of ['true', 'false', 'null'] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { type: 'literal', line: at, value: word === 'true' ? true : word === 'false' ? false : null };
      }
    }
    number.lastIndex = i;
    const m = number.exec(text);
    if (!m) fail(c === undefined ? 'unexpected end of the file' : `unexpected character ${JSON.stringify(c)}`);
    i = number.lastIndex;
    return { type: 'number', line: at, raw: m![0] };
  };
  try {
    const root = value(0);
    space();
    if (i < text.length) fail('unexpected text after the end of the JSON value');
    return { ok: true, root, duplicates };
  } catch (error) {
    if (error instanceof JsonError) return { ok: false, line, message: error.message };
    throw error;
  }
}
