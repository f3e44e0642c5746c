// Query strings as Django and Django REST Framework read and write them, so
// that the handler sees the parameters the service sees and writes
// next/previous links byte for byte as the service does:
//  - read: split on "&", "+" is a space, percent-escapes decoded as UTF-8
//    (invalid bytes become U+FFFD), a piece without "=" is a key with an
//    empty value, empty pieces are skipped; a repeated key's last value is
//    the one filters read (QueryDict.get), all values are kept for links;
//  - write (DRF replace_query_param / remove_query_param): every parameter
//    kept, keys sorted by code point, values of a repeated key in order,
//    urllib's quote_plus (space as "+", only A-Z a-z 0-9 _ . - ~ unescaped).
// Inputs have size limits: a longer query is refused before it is read.

/** Longest query string the handler reads (the service's own URLs stay far below). */
export const MAX_QUERY_LENGTH = 2048;
/** Most parameters the handler reads. */
export const MAX_PARAMS = 32;

export type QueryPairs = [key: string, value: string][];

export class QueryTooLarge extends Error {}

export function parseQuery(search: string): QueryPairs {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query.length > MAX_QUERY_LENGTH) throw new QueryTooLarge(`the query string is longer than ${MAX_QUERY_LENGTH} characters`);
  const pairs: QueryPairs = [];
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const cut = piece.indexOf('=');
    const key = cut < 0 ? piece : piece.slice(0, cut);
    const value = cut < 0 ? '' : piece.slice(cut + 1);
    pairs.push([unquotePlus(key), unquotePlus(value)]);
    if (pairs.length > MAX_PARAMS) throw new QueryTooLarge(`more than ${MAX_PARAMS} query parameters`);
  }
  return pairs;
}

/** The last value of a key (Django's QueryDict.get), or undefined. */
export function lastValue(pairs: QueryPairs, key: string): string | undefined {
  for (let i = pairs.length - 1; i >= 0; i--) if (pairs[i][0] === key) return pairs[i][1];
  return undefined;
}

/** Python's urllib.parse.unquote_plus with errors='replace'. */
function unquotePlus(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  // Percent-escapes to bytes, everything else to its UTF-8 bytes, then one strict-free decode.
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < spaced.length; ) {
    if (spaced[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(spaced.slice(i + 1, i + 3))) {
      bytes.push(parseInt(spaced.slice(i + 1, i + 3), 16));
      i += 3;
      continue;
    }
    const code = spaced.codePointAt(i)!;
    const char = String.fromCodePoint(code);
    for (const b of encoder.encode(char)) bytes.push(b);
    i += char.length;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes));
}

const UNRESERVED = /[A-Za-z0-9_.\-~]/;

/** Python's urllib.parse.quote_plus (safe=''), on the UTF-8 bytes. */
export function quotePlus(text: string): string {
  let out = '';
  for (const char of text) {
    if (UNRESERVED.test(char)) out += char;
    else if (char === ' ') out += '+';
    else for (const b of new TextEncoder().encode(char)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Python's str ordering: by code point (JavaScript's < compares UTF-16 units, which differ past U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (U+D800-DFFF) stands for a code point above every BMP one.
    if (x >= 0xd800 && x <= 0xdfff && (y < 0xd800 || y > 0xdfff)) return 1;
    if (y >= 0xd800 && y <= 0xdfff && (x < 0xd800 || x > 0xdfff)) return -1;
    return x - y;
  }
  return a.length - b.length;
}

/** parse_qs(keep_blank_values=True) then urlencode(sorted(...), doseq=True), with `key` set to `value` (null: removed). */
export function rewriteQuery(pairs: QueryPairs, key: string, value: string | null): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    const values = grouped.get(k) ?? [];
    values.push(v);
    grouped.set(k, values);
  }
  if (value === null) grouped.delete(key);
  else grouped.set(key, [value]);
  return [...grouped]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .flatMap(([k, values]) => values.map((v) => `${quotePlus(k)}=${quotePlus(v)}`))
    .join('&');
}

/** Python's int() of a text: surrounding whitespace, a sign, ASCII digits with single underscores between them. Null when int() would refuse it. */
export function pyInt(text: string): number | null {
  const match = /^[\s]*([+-]?)([0-9](?:_?[0-9])*)[\s]*$/.exec(text);
  if (!match) return null;
  // Past 2^53 the value is approximate, which is enough: such a page is past the end, such a page size over the cap.
  const value = Number(match[2].replace(/_/g, ''));
  return match[1] === '-' ? -value : value;
}

/** DRF's page size: one that is not a positive integer is the default, above the maximum the maximum. */
export function pageSizeOf(asked: string | undefined, defaultSize: number, maxSize: number): number {
  const size = pyInt(asked ?? '');
  return size === null || size <= 0 ? defaultSize : Math.min(size, maxSize);
}

/** DRF's page number: none is page 1, "last" the last; anything else not a positive integer is null ("Invalid page."). */
export function pageNumberOf(asked: string | undefined): number | 'last' | null {
  if (asked === 'last') return 'last';
  const number = pyInt(asked ?? '1');
  return number === null || number < 1 ? null : number;
}
