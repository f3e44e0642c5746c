// A record's text in a text format, made once per record: the text formats
// (jaspar, pfm, transfac, meme) print a list page as its records' texts
// one after the other, and one record is on dozens of pages (every list view
// it belongs to, at every page size, its versions, its detail and its base
// id). Measured on the JASPAR 2024 release, rendered on one thread: the list
// pages in these formats took 3.4 s of 15.2 s, almost all of it printing the
// same records again.
//
// The memo is keyed by the record object (a WeakMap: it goes with the
// record), and by the release description for a text that prints it: a
// render worker holds each record once (pipeline/wire.ts) and renders every
// task that shows it with that one object. Records are never changed once
// read, so the text of a record object never changes either. A worker holds
// at most about 6,000 records (wire.ts HELD), and their texts with them:
// about 5 KB a record in these formats and the api pages' rows. BED blocks
// are not kept (a record's sites are up to a few MB; rendering them again
// costs little), nor the large parts of a matrix page: lastRecord keeps
// those for the one record a base id's page shows again right after.
//
// A text that nothing shows again before the thread ends is rendered unkept:
// the memos are read then, not filled. The main thread renders every record
// for the bulk files (mirror/bulk.ts), which keep their own record texts while
// they need them; kept here, those texts lived as long as the release (about
// 120 MB for the 10x synthetic release, through the whole render).
import type { Matrix } from '../dataset/types.ts';
import type { Json } from './types.ts';

/** False while rendering unkept. */
let keeping = true;

/**
 * Texts kept across builds (pipeline/fragments.ts), in a render worker: a rebuild after a matrix is added
 * or removed renders the list pages after it in every view, whose records' texts that worker would
 * otherwise make cold (shift24: about 1 ms a task against 0.4 ms in a full build). A memo with a name
 * looks a text up there before rendering it, and says what it made. Keys name what the text is made
 * from: the record's digest (everything it holds but its row, which no format prints), the part's key
 * for a second argument (the release description and layout it renders with), or a list item's fields;
 * the store itself is only read by the generator sources and options that wrote it.
 */
export interface Fragments {
  /** The record's digest (dataset/digest.ts), when known. */
  record(m: Matrix): string | undefined;
  /** The key of a memo's second argument (a part's release description or format context), when known. */
  with(w: object): string | undefined;
  get(key: string): string | undefined;
  /** A text rendered here, for the next build. */
  made(key: string, text: string): void;
}

let fragments: Fragments | null = null;

/** Where named memos look texts up and report the texts they make (null: nowhere). */
export function useFragments(f: Fragments | null): void {
  fragments = f;
}

/** The text kept under key, else rendered (and reported made). */
function fromFragments(key: string, render: () => string): string {
  let text = fragments!.get(key);
  if (text === undefined) {
    text = flat(render());
    fragments!.made(key, text);
  }
  return text;
}

/** render(), with the memos read but not filled. */
export function unkept<T>(render: () => T): T {
  const was = keeping;
  keeping = false;
  try {
    return render();
  } finally {
    keeping = was;
  }
}

/** render(m), made once per record; name: the memo's across builds (Fragments). */
export function perRecord(render: (m: Matrix) => string, name?: string): (m: Matrix) => string {
  const memo = new WeakMap<Matrix, string>();
  return (m) => {
    let text = memo.get(m);
    if (text === undefined) {
      const digest = keeping && name !== undefined ? fragments?.record(m) : undefined;
      if (digest !== undefined) memo.set(m, (text = fromFragments(`${name} ${digest}`, () => render(m))));
      else {
        text = render(m);
        if (keeping) memo.set(m, (text = flat(text)));
      }
    }
    return text;
  };
}

/** render(m, with), made once per record and second argument (the release description: compared by identity); name: the memo's across builds (Fragments). */
export function perRecordWith<W extends object>(render: (m: Matrix, w: W) => string, name?: string): (m: Matrix, w: W) => string {
  const memos = new WeakMap<W, WeakMap<Matrix, string>>();
  return (m, w) => {
    let memo = memos.get(w);
    let text = memo?.get(m);
    if (text === undefined) {
      if (!keeping) return render(m, w);
      if (memo === undefined) memos.set(w, (memo = new WeakMap()));
      const digest = name !== undefined ? fragments?.record(m) : undefined;
      const part = digest !== undefined ? fragments!.with(w) : undefined;
      text = part !== undefined ? fromFragments(`${name} ${part} ${digest}`, () => render(m, w)) : flat(render(m, w));
      memo.set(m, text);
    }
    return text;
  };
}

/** render(m), kept for the last record only: for a text that only the next task may ask for again (a base id's page after its latest version's). */
export function lastRecord(render: (m: Matrix) => string): (m: Matrix) => string {
  let last: { m: Matrix; text: string } | null = null;
  return (m) => {
    if (last?.m !== m) last = { m, text: render(m) };
    return last.text;
  };
}

/**
 * render(item) of a list item (a list's or versions' result: plan/resources.ts listItem), kept per record
 * while its item is equal: the same object (plan/resources.ts shownItem builds one a record), else the same
 * fields (seven short strings, compared one by one); a record is on dozens of list pages in each of the json,
 * jsonp and api formats, and printing the item (escaped and linked, for api) was most of a list page's CPU.
 * Only items whose fields are all strings, numbers, booleans or null are kept.
 */
export function perItem(render: (item: Json) => string, name?: string): (m: Matrix, item: Json) => string {
  const memo = new WeakMap<Matrix, { keys: string[]; item: { [key: string]: Json }; text: string }>();
  return (m, item) => {
    const kept = memo.get(m);
    if (kept !== undefined && (kept.item === item || sameFlat(kept.keys, kept.item, item))) return kept.text;
    if (!keeping || !isFlat(item)) return render(item);
    // Across builds by the item's fields: only an item of strings, whose JSON tells every item apart (a number's
    // would not: -0 and 0, NaN and null print alike).
    const text = name !== undefined && fragments !== null && allStrings(item) ? fromFragments(`${name} ${JSON.stringify(item)}`, () => render(item)) : flat(render(item));
    memo.set(m, { keys: Object.keys(item), item, text });
    return text;
  };
}

const allStrings = (item: { [key: string]: Json }): boolean => {
  for (const key in item) if (typeof item[key] !== 'string') return false;
  return true;
};

/** A plain object (not an array, not a PyFloat). */
const isObject = (value: Json): value is { [key: string]: Json } => value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

const isFlat = (item: Json): item is { [key: string]: Json } => {
  if (!isObject(item)) return false;
  for (const key in item) {
    const v = item[key];
    if (v !== null && typeof v === 'object') return false;
  }
  return true;
};

/** The same keys in the same order with the same values (kept: a flat item). */
function sameFlat(keys: readonly string[], kept: { [key: string]: Json }, item: Json): boolean {
  if (!isObject(item)) return false;
  let n = 0;
  for (const key in item) {
    if (key !== keys[n++] || !Object.is(item[key], kept[key])) return false;
  }
  return n === keys.length;
}

/**
 * The text as one flat string. A text made by concatenation (`+=`, template literals) is in V8 a tree of
 * its pieces (a cons string), and kept, it keeps every piece: dozens a record. A JSON round trip makes a flat
 * copy, exactly (lone surrogates included), in about a microsecond for a record's text.
 */
export const flat = (text: string): string => JSON.parse(JSON.stringify(text)) as string;
