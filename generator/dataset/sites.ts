// Where a matrix's binding sites are held: in their file. A record's sites
// (Matrix.sites, checked by readBed) are asked for a few times a build (its
// sites pages in JSON and BED, its download file, its BED list page, the
// digest, each time the record is sent to the render workers), and the texts
// are large: 100 MB for the 10x synthetic release, held by the main thread
// from the plan to the end of the render (its peak RSS 1,097 -> 968 MB in a
// quiet pair, the main heap late in the render 415 -> 306 MB). So the
// record's `sites` reads the file again when asked, and a few recent texts are
// kept for the asks that come together (a record sent to both workers, its
// pages rendered one after the other).
//
// A file that changed since it was checked would put another text in the
// files than the one the plan and the digest were made from: a text read again
// must be the one checked (same length and MD5), or the build stops.
import { createHash } from 'node:crypto';
import { SIZE_LIMITS, readCapped } from './files.ts';
import { sitesDigests } from './digest.ts';

/** What a text read again must be (a file's as checked): its length and MD5. */
export interface SitesChecked {
  length: number;
  md5: string;
}

/** Texts read last (by MD5 and real path), newest last, and their characters in all (at most RECENT_CHARS). */
const recent = new Map<string, string>();
let recentChars = 0;
/** A few large texts or many small ones: the asks for one record come within a render batch or two. */
const RECENT_CHARS = 4 << 20;

const md5 = (text: string) => createHash('md5').update(text).digest('base64');

/** A checked text's length and MD5 (kept by parsed-files.ts in its place). */
export const checkSites = (text: string): SitesChecked => ({ length: text.length, md5: md5(text) });

/** A record's sites: a file's text as checked (read again when asked), or a value held; none: null. */
type Held = { real: string; length: number; md5: string } | { value: string | null };
const held = new WeakMap<object, Held>();

/**
 * One getter and setter for every record, added after the record's other properties: a property made
 * an accessor in place, or accessors of their own, put each record in V8's dictionary mode (its every
 * property looked up by name, by every function that reads records); these keep every curated record of
 * one shape (one hidden class).
 */
function getSites(this: object): string | null {
  const h = held.get(this);
  return h === undefined ? null : 'value' in h ? h.value : reread(h);
}
function setSites(this: object, value: string | null): void {
  held.set(this, { value });
  sitesDigests.delete(this);
}

/**
 * The record with `sites`: the text of the BED file at the real path `real` (text: what readBed made of
 * it, or its length and MD5 as an earlier build checked it: parsed-files.ts), read from the file when
 * asked instead of held; null without a file.
 * Setting `sites` holds the value set, as a plain property would. Without a real path (a folder not on
 * disk) the text is held.
 */
export function withSites<M extends { sites: string | null }>(record: Omit<M, 'sites'>, real: string | null, text: string | SitesChecked | null): M {
  // A record without sites has no entry (null).
  if (typeof text === 'string' && real === null) held.set(record, { value: text });
  else if (text !== null) {
    if (real === null) throw new Error(`${(record as { matrixId?: string }).matrixId}: binding sites known by their MD5 only need their file`);
    const checked = { real, ...(typeof text === 'string' ? checkSites(text) : text) };
    held.set(record, checked);
    // The digest's stand-in for the text (dataset/digest.ts): what a text read again is checked against.
    sitesDigests.set(record, `md5 ${checked.md5} ${checked.length}`);
  }
  return Object.defineProperty(record, 'sites', { get: getSites, set: setSites, enumerable: true, configurable: true }) as M;
}

/**
 * The file a record's sites are read from when asked, as checked; null when its text is held or it has none. A
 * render worker is sent the file rather than the text (pipeline/pool.ts define): it reads the text only for the
 * tasks that print it (a matrix's pages, the BED lists), not for the list pages that show the record.
 */
export function sitesFile(record: object): { real: string; length: number; md5: string } | null {
  const h = held.get(record);
  return h === undefined || 'value' in h ? null : h;
}

function reread(checked: { real: string; length: number; md5: string }): string {
  const { real } = checked;
  // By content too: a build after this one in the same process (tests, a watcher) may find the file changed.
  const key = `${checked.md5} ${real}`;
  const kept = recent.get(key);
  if (kept !== undefined) {
    recent.delete(key);
    recent.set(key, kept);
    return kept;
  }
  const read = readCapped(real, SIZE_LIMITS.bed);
  // As readBed returns it: a file without a final line break gets one.
  let text = 'bytes' in read ? read.bytes.toString('utf8') : null;
  if (text !== null && text !== '' && !text.endsWith('\n')) text += '\n';
  if (text === null || text.length !== checked.length || md5(text) !== checked.md5) {
    throw new Error(`${real}:1: the binding-site file changed while the site was built (fix: build again once the release's files stay put)`);
  }
  recent.set(key, text);
  recentChars += text.length;
  for (const [k, t] of recent) {
    if (recentChars <= RECENT_CHARS || k === key) break;
    recent.delete(k);
    recentChars -= t.length;
  }
  return text;
}
