// The fuzz oracle: what a release folder says, read independently of the
// generator's loader (csv-parse and a few regular expressions, no
// validation), and a checker that parses a built site back and compares every
// resource in every format with it. Used by the fuzz suites and by
// test/formats/hostile.test.ts.
import vm from 'node:vm';
import { parse as parseCsv } from 'csv-parse/sync';
import yaml from 'js-yaml';
import { BASES, type Pfm, type Release, type ReleaseInfo } from '../../generator/dataset/types.ts';

export const INFO: ReleaseInfo = { name: 'JASPAR 2024', year: 2024, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.genereg.net/matrix/{matrix_id}', number: 10, citation: '', license: '', collections: [], olderVersions: null };

/** A release folder in memory: relative path → bytes, or 'dir' for a folder standing where a file is expected. */
export type Files = Map<string, Buffer | 'dir'>;

export interface RefMatrix {
  id: string;
  baseId: string;
  version: number;
  collection: string;
  name: string;
  taxGroup: string;
  tfClass: string[];
  tfFamily: string[];
  dataType: string;
  species: { tax_id: number | null; name: string }[];
  uniprotIds: string[];
  pubmedIds: string[];
  source: string;
  comment: string;
  pfm: Pfm;
  sites: string | null;
  row: number;
}

const text = (files: Files, rel: string): string => {
  const b = files.get(rel);
  if (b === undefined || b === 'dir') throw new Error(`oracle: ${rel} is not a file`);
  return b.toString('utf8');
};
const list = (cell: string) => (cell === '' ? [] : cell.split(';').map((v) => v.trim()));

/**
 * What the files say, as plain values. Throws when the files do not even
 * say it (a row without its matrix file…): a loader that accepted such a
 * folder is wrong.
 */
export function referenceRelease(files: Files): RefMatrix[] {
  // A BOM and CRLF line ends are how spreadsheets and Python write CSV: the loader reads them as LF (issue 12 §3).
  const rows = parseCsv(text(files, 'matrices.csv'), { relax_column_count: true, bom: true }) as string[][];
  const header = rows[0];
  const precise = files.has('pfm_noninteger.json')
    ? (JSON.parse(text(files, 'pfm_noninteger.json')) as Record<string, { pfm: Record<string, (number | string)[]> }>)
    : {};
  return rows.slice(1).map((cells, row) => {
    const v = (column: string) => {
      const i = header.indexOf(column);
      if (i < 0 || cells[i] === undefined) throw new Error(`oracle: row ${row + 2} has no ${column}`);
      return cells[i];
    };
    const id = v('matrix_id');
    const lines = text(files, `matrices/${id}.jaspar`).split('\n');
    const pfm = {} as Pfm;
    BASES.forEach((b, i) => {
      const m = /\[(.*)\]/.exec(lines[i + 1] ?? '');
      if (!m) throw new Error(`oracle: no ${b} row in ${id}.jaspar`);
      pfm[b] = m[1].trim().split(/\s+/).map(Number);
    });
    if (Object.hasOwn(precise, id)) for (const b of BASES) pfm[b] = precise[id].pfm[b].map(Number);
    const names = list(v('species'));
    const taxIds = list(v('tax_ids'));
    const bed = files.get(`sites/${id}.bed`);
    let sites: string | null = null;
    if (bed instanceof Buffer) {
      sites = bed.toString('utf8');
      if (sites !== '' && !sites.endsWith('\n')) sites += '\n';
    }
    return {
      id,
      baseId: v('base_id'),
      version: Number(v('version')),
      collection: v('collection'),
      name: v('name'),
      taxGroup: v('tax_group'),
      tfClass: list(v('tf_class')),
      tfFamily: list(v('tf_family')),
      dataType: v('data_type'),
      species: names.map((name, i) => ({ tax_id: taxIds[i] === undefined ? null : Number(taxIds[i]), name })),
      uniprotIds: list(v('uniprot_ids')),
      pubmedIds: list(v('pubmed_ids')),
      source: v('source'),
      comment: v('comment'),
      pfm,
      sites,
      row,
    };
  });
}

/** Differences between what the loader made and what the files say. */
export function compareRelease(release: Release, ref: RefMatrix[]): string[] {
  const out: string[] = [];
  if (release.matrices.length !== ref.length) out.push(`loader: ${release.matrices.length} matrices, the files hold ${ref.length}`);
  release.matrices.forEach((m, i) => {
    const r = ref[i];
    if (!r) return;
    const got = {
      id: m.matrixId, baseId: m.baseId, version: m.version, collection: m.collection, name: m.name, taxGroup: m.taxGroup,
      tfClass: m.tfClass, tfFamily: m.tfFamily, dataType: m.dataType, species: m.species.map((s) => ({ tax_id: s.taxId, name: s.name })),
      uniprotIds: m.uniprotIds, pubmedIds: m.pubmedIds, source: m.source, comment: m.comment, pfm: m.pfm, sites: m.sites, row: m.row,
    };
    const a = JSON.stringify(got);
    const b = JSON.stringify(r);
    if (a !== b) out.push(`loader: matrix ${i} is ${a.slice(0, 300)}\n  the files say ${b.slice(0, 300)}`);
  });
  return out;
}

// ------------------------------------------------------------ the site

/** Bytes order of UTF-8 = code point order; ties in row order. */
export function listOrdered(ref: RefMatrix[]): RefMatrix[] {
  return [...ref].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)) || a.row - b.row);
}

function detailJson(m: RefMatrix, base: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    matrix_id: m.id,
    name: m.name,
    base_id: m.baseId,
    version: m.version,
    collection: m.collection,
    sequence_logo: `${base}/static/logos/svg/${m.id}.svg`,
    versions_url: `${base}/api/v1/matrix/${m.baseId}/versions`,
    sites_url: m.sites === null ? null : `${base}/download/bed_files/${m.id}.bed`,
    pfm: m.pfm,
    class: m.tfClass,
    family: m.tfFamily,
  };
  if (m.taxGroup) body.tax_group = m.taxGroup;
  if (m.dataType) body.type = m.dataType;
  if (m.source) body.source = m.source;
  if (m.comment) body.comment = m.comment;
  body.uniprot_ids = m.uniprotIds;
  body.pubmed_ids = m.pubmedIds;
  body.species = m.species;
  return body;
}

const listItem = (m: RefMatrix, base: string) => ({
  matrix_id: m.id, name: m.name, collection: m.collection, base_id: m.baseId, version: String(m.version),
  sequence_logo: `${base}/static/logos/svg/${m.id}.svg`, url: `${base}/api/v1/matrix/${m.id}/`,
});

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const htmlEscape = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

function runJsonp(source: string): unknown {
  let got: unknown;
  vm.runInNewContext(source, { callback: (body: unknown) => { got = body; } }, { timeout: 1_000 });
  return got;
}

/** A file of the site as text, or undefined when it was not written. */
export type ReadSite = (rel: string) => string | undefined;

/**
 * Every resource of the site in every format, parsed back and compared with
 * what the files of the release say. Returns the differences (none: []).
 */
export function checkSite(read: ReadSite, ref: RefMatrix[], base: string, info: ReleaseInfo = INFO): string[] {
  const out: string[] = [];
  const need = (rel: string): string => {
    const t = read(rel);
    if (t === undefined) out.push(`${rel} was not written`);
    return t ?? '';
  };
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  const same = (got: unknown, want: unknown, what: string) => {
    const a = JSON.stringify(got);
    const b = JSON.stringify(want);
    if (a !== b) out.push(`${what}:\n  got  ${String(a).slice(0, 400)}\n  want ${String(b).slice(0, 400)}`);
  };
  const tryParse = <T>(what: string, f: () => T): T | undefined => {
    try {
      return f();
    } catch (error) {
      out.push(`${what} does not parse: ${(error as Error).message}`);
      return undefined;
    }
  };

  for (const m of ref) {
    const dir = `api/v1/matrix/${m.id}/`;
    const body = detailJson(m, base);
    const json = tryParse(`${dir}index.json`, () => JSON.parse(need(`${dir}index.json`)));
    same(json, body, `${dir}index.json`);
    const yamlText = need(`${dir}index.yaml`);
    const doc = tryParse(`${dir}index.yaml`, () => yaml.load(yamlText));
    same(sortKeys(doc), sortKeys(body), `${dir}index.yaml`);
    // PyYAML writes floats with a dot ("1.0e-05"): YAML 1.1 reads "1e-05" as a string.
    // The counts are the only list items indented under a key ("pfm:", "A:");
    // a top-level item is a string, and "- 1e" is one, as PyYAML writes it.
    const countLines = yamlText.split('\n').filter((line) => line.startsWith('  - '));
    check(countLines.length === 4 * width(m), `${dir}index.yaml: ${countLines.length} count lines under pfm, not 4 x ${width(m)}`);
    for (const line of countLines) check(/^  - [-+]?[0-9]+\.[0-9]*(e[-+][0-9]+)?$/.test(line), `${dir}index.yaml: "${line}" is not a YAML 1.1 float`);
    same(tryParse(`${dir}index.js`, () => runJsonp(need(`${dir}index.js`))), body, `${dir}index.js`);

    checkJaspar(need(`${dir}index.jaspar.txt`), [m], `${dir}index.jaspar.txt`, out);
    checkPfm(need(`${dir}index.pfm.txt`), [m], `${dir}index.pfm.txt`, out);
    checkTransfac(need(`${dir}index.transfac.txt`), [m], info, `${dir}index.transfac.txt`, out);
    checkMeme(need(`${dir}index.meme.txt`), [m], info, `${dir}index.meme.txt`, out);
    same(need(`${dir}index.bed.txt`), m.sites ?? '', `${dir}index.bed.txt`);
    if (m.sites !== null) same(need(`download/bed_files/${m.id}.bed`), m.sites, `download/bed_files/${m.id}.bed`);
    checkHtml(need(`${dir}index.html`), `${m.id} ${m.name}`, `${dir}index.html`, out);
    const svg = need(`static/logos/svg/${m.id}.svg`);
    check(svg.startsWith('<svg') && !/NaN|Infinity|undefined/.test(svg), `static/logos/svg/${m.id}.svg is not a clean SVG`);
  }

  // The base ids: latest version, and the versions list.
  const byBase = new Map<string, RefMatrix[]>();
  for (const m of ref) byBase.set(m.baseId, [...(byBase.get(m.baseId) ?? []), m]);
  for (const [baseId, versions] of byBase) {
    versions.sort((a, b) => a.version - b.version);
    same(tryParse(`${baseId}/index.json`, () => JSON.parse(need(`api/v1/matrix/${baseId}/index.json`))), detailJson(versions[versions.length - 1], base), `api/v1/matrix/${baseId}/index.json`);
    same(tryParse(`${baseId}/versions`, () => JSON.parse(need(`api/v1/matrix/${baseId}/versions/index.json`))), { count: versions.length, results: versions.map((v) => listItem(v, base)) }, `api/v1/matrix/${baseId}/versions/index.json`);
    checkJaspar(need(`api/v1/matrix/${baseId}/versions/index.jaspar.txt`), versions, `${baseId}/versions/index.jaspar.txt`, out);
  }

  // The list: every page in every format shows exactly its matrices.
  const ordered = listOrdered(ref);
  const pages = Math.max(1, Math.ceil(ordered.length / 10));
  for (let p = 1; p <= pages; p++) {
    const dir = `api/v1/matrix/page/${p}/`;
    const items = ordered.slice((p - 1) * 10, p * 10);
    const q = (n: number) => `${base}/api/v1/matrix?format=json&page=${n}`;
    same(tryParse(`${dir}index.json`, () => JSON.parse(need(`${dir}index.json`))), {
      count: ordered.length, next: p < pages ? q(p + 1) : null, previous: p > 1 ? q(p - 1) : null, results: items.map((m) => listItem(m, base)),
    }, `${dir}index.json`);
    const doc = tryParse(`${dir}index.yaml`, () => yaml.load(need(`${dir}index.yaml`)) as { results: unknown[] });
    same(doc?.results, items.map((m) => sortKeys(listItem(m, base))), `${dir}index.yaml results`);
    const jsonp = tryParse(`${dir}index.js`, () => runJsonp(need(`${dir}index.js`)) as { results: unknown[] });
    same(jsonp?.results, items.map((m) => listItem(m, base)), `${dir}index.js results`);
    checkJaspar(need(`${dir}index.jaspar.txt`), items, `${dir}index.jaspar.txt`, out);
    checkPfm(need(`${dir}index.pfm.txt`), items, `${dir}index.pfm.txt`, out);
    checkTransfac(need(`${dir}index.transfac.txt`), items, info, `${dir}index.transfac.txt`, out);
    checkMeme(need(`${dir}index.meme.txt`), items, info, `${dir}index.meme.txt`, out);
    checkBedList(need(`${dir}index.bed.txt`), items, `${dir}index.bed.txt`, out);
    const html = need(`${dir}index.html`);
    checkHtml(html, 'Matrix List', `${dir}index.html`, out);
    for (const m of items) check(html.includes(`<td>${htmlEscape(m.name)}</td>`), `${dir}index.html does not show the name of ${m.id} as text`);
  }
  check(read(`api/v1/matrix/page/${pages + 1}/index.json`) === undefined, `a list page ${pages + 1} was written for ${ordered.length} matrices`);

  // A row of the search index starts with id, name, collection and taxonomic group (pages/search.ts SEARCH_FIELDS).
  const index = tryParse('static/search/index.json', () => JSON.parse(need('static/search/index.json')) as { matrices: unknown[][] });
  same(index?.matrices.map((row) => row.slice(0, 4)), ordered.map((m) => [m.id, m.name, m.collection, m.taxGroup]), 'static/search/index.json');
  checkHtml(need('index.html'), 'JASPAR transcription factor binding profiles', 'index.html', out);
  checkHtml(need('search/index.html'), 'Search matrices', 'search/index.html', out);
  // The routing rules are checked where they are made (test/hosting, test/e2e); here: written, with the safe headers.
  check(need('_redirects').startsWith('#'), '_redirects is empty');
  check(/^\/\*\n {2}Content-Security-Policy: /m.test(need('_headers')), '_headers has no Content-Security-Policy for every file');
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Lines of a text body; it must end with exactly one newline (or be empty). */
function linesOf(body: string, what: string, out: string[]): string[] {
  if (body === '') return [];
  if (!body.endsWith('\n')) out.push(`${what} does not end with a newline`);
  return body.replace(/\n$/, '').split('\n');
}

const near = (got: number, want: number, tolerance: number) => Math.abs(got - want) <= tolerance + Math.abs(want) * 1e-15;
const width = (m: RefMatrix) => m.pfm.A.length;

function checkCounts(rows: number[][], m: RefMatrix, tolerance: number, what: string, out: string[]): void {
  BASES.forEach((b, i) => {
    const got = rows[i] ?? [];
    if (got.length !== width(m) || got.some((v, c) => !near(v, m.pfm[b][c], tolerance))) {
      out.push(`${what}: ${m.id} ${b} is [${got.join(' ')}], the file says [${m.pfm[b].join(' ')}]`);
    }
  });
}

/** JASPAR: ">ID<TAB>NAME" and four "B  [ counts ]" rows per matrix; "%6.0f" counts. */
function checkJaspar(body: string, matrices: RefMatrix[], what: string, out: string[]): void {
  const lines = linesOf(body, what, out);
  if (lines.length !== 5 * matrices.length) {
    out.push(`${what}: ${lines.length} lines for ${matrices.length} matrices (a forged line?)`);
    return;
  }
  matrices.forEach((m, k) => {
    const [head, ...rows] = lines.slice(5 * k, 5 * k + 5);
    if (head !== `>${m.id}\t${m.name}`) out.push(`${what}: header ${JSON.stringify(head)}, want >${m.id}<TAB>${JSON.stringify(m.name)}`);
    const counts = rows.map((r, i) => {
      // "%6.0f" pads to 6 characters; wider numbers touch the bracket, as in Python.
      const match = new RegExp(`^${BASES[i]}  \\[( *[0-9]+(?: +[0-9]+)*) \\]$`).exec(r);
      if (!match) out.push(`${what}: ${m.id} row ${JSON.stringify(r)}`);
      return match ? match[1].trim().split(/ +/).map(Number) : [];
    });
    checkCounts(counts, m, 0.5, what, out);
  });
}

/** PFM: ">ID NAME" and four rows of "%6.2f" counts per matrix. */
function checkPfm(body: string, matrices: RefMatrix[], what: string, out: string[]): void {
  const lines = linesOf(body, what, out);
  if (lines.length !== 5 * matrices.length) {
    out.push(`${what}: ${lines.length} lines for ${matrices.length} matrices (a forged line?)`);
    return;
  }
  matrices.forEach((m, k) => {
    const [head, ...rows] = lines.slice(5 * k, 5 * k + 5);
    if (head !== `>${m.id} ${m.name}`) out.push(`${what}: header ${JSON.stringify(head)}`);
    const counts = rows.map((r) => (/^( *[0-9]+\.[0-9]{2})( +[0-9]+\.[0-9]{2})*$/.test(r) ? r.trim().split(/ +/).map(Number) : (out.push(`${what}: ${m.id} row ${JSON.stringify(r)}`), [])));
    checkCounts(counts, m, 0.005, what, out);
  });
}

/** TRANSFAC: AC/XX/ID/XX/DE/PO, one row per position (exact counts), XX, six CC lines, XX, //. */
function checkTransfac(body: string, matrices: RefMatrix[], info: ReleaseInfo, what: string, out: string[]): void {
  const lines = linesOf(body, what, out);
  const expected = matrices.reduce((n, m) => n + 6 + width(m) + 1 + 6 + 2, 0);
  if (lines.length !== expected) {
    out.push(`${what}: ${lines.length} lines, want ${expected} (a forged line?)`);
    return;
  }
  let at = 0;
  for (const m of matrices) {
    const head = lines.slice(at, at + 6);
    const want = [`AC ${m.id}`, 'XX', `ID ${m.name}`, 'XX', `DE ${m.id} ${m.name} ; ${info.transfacFrom}`, 'PO\tA\tC\tG\tT'];
    if (JSON.stringify(head) !== JSON.stringify(want)) out.push(`${what}: head ${JSON.stringify(head)}`);
    at += 6;
    const counts: number[][] = [[], [], [], []];
    for (let i = 0; i < width(m); i++) {
      const fields = lines[at++].split('\t');
      if (fields.length !== 5 || Number(fields[0]) !== i + 1) out.push(`${what}: ${m.id} position ${i + 1} is ${JSON.stringify(lines[at - 1])}`);
      fields.slice(1).forEach((f, b) => counts[b].push(Number(f)));
    }
    checkCounts(counts, m, 0, what, out);
    const tail = lines.slice(at, at + 9);
    const wantTail = ['XX', `CC tax_group:${m.taxGroup}`, `CC tf_family:${m.tfFamily.join('; ')}`, `CC tf_class:${m.tfClass.join('; ')}`,
      `CC pubmed_ids:${m.pubmedIds.join('; ')}`, `CC uniprot_ids:${m.uniprotIds.join('; ')}`, `CC data_type:${m.dataType}`, 'XX', '//'];
    if (JSON.stringify(tail) !== JSON.stringify(wantTail)) out.push(`${what}: tail ${JSON.stringify(tail)}\n  want ${JSON.stringify(wantTail)}`);
    at += 9;
  }
}

const MEME_HEAD = ['MEME version 4', '', 'ALPHABET= ACGT', '', 'strands: + -', '', 'Background letter frequencies', 'A 0.25 C 0.25 G 0.25 T 0.25', ''];

/** MEME: the header once, then per motif MOTIF, the probability rows (to 6 decimals), URL and a blank line. */
function checkMeme(body: string, matrices: RefMatrix[], info: ReleaseInfo, what: string, out: string[]): void {
  const lines = linesOf(body, what, out);
  const expected = MEME_HEAD.length + matrices.reduce((n, m) => n + 2 + width(m) + 2, 0);
  if (lines.length !== expected || JSON.stringify(lines.slice(0, MEME_HEAD.length)) !== JSON.stringify(MEME_HEAD)) {
    out.push(`${what}: ${lines.length} lines, want ${expected} (a forged line?)`);
    return;
  }
  let at = MEME_HEAD.length;
  for (const m of matrices) {
    const totals = m.pfm.A.map((_, i) => BASES.reduce((s, b) => s + m.pfm[b][i], 0));
    if (lines[at] !== `MOTIF ${m.id} ${m.name}`) out.push(`${what}: ${JSON.stringify(lines[at])}`);
    if (lines[at + 1] !== `letter-probability matrix: alength= 4 w= ${width(m)} nsites= ${Math.trunc(totals[0] ?? 0)} E= 0`) out.push(`${what}: ${JSON.stringify(lines[at + 1])}`);
    at += 2;
    for (let i = 0; i < width(m); i++) {
      const got = lines[at++].trim().split(/ +/).map(Number);
      BASES.forEach((b, k) => {
        const want = totals[i] > 0 ? m.pfm[b][i] / totals[i] : 0.25;
        if (!(Math.abs(got[k] - want) <= 5e-7 + 1e-12)) out.push(`${what}: ${m.id} column ${i + 1} ${b} is ${got[k]}, want ${want}`);
      });
    }
    if (lines[at] !== `URL ${info.memeUrl.replace('{matrix_id}', m.id)}` || lines[at + 1] !== '') out.push(`${what}: URL lines ${JSON.stringify(lines.slice(at, at + 2))}`);
    at += 2;
  }
}

/** BED of several matrices: a "# ID NAME" comment per matrix with sites, then its lines, padded to 6 columns. */
function checkBedList(body: string, matrices: RefMatrix[], what: string, out: string[]): void {
  let want = '';
  for (const m of matrices) {
    if (!m.sites) continue;
    const lines = m.sites.replace(/\n$/, '').split('\n').map((l) => {
      if (l === '' || /^(#|track|browser)/.test(l)) return l;
      const n = l.split('\t').length;
      return n >= 6 ? l : l + '\t.'.repeat(6 - n);
    });
    want += `# ${m.id} ${m.name}\n${lines.join('\n')}\n`;
  }
  if (body !== want) out.push(`${what} differs from the matrices' BED files`);
}

export interface Tag {
  /** Lower case; "/p" for an end tag. */
  name: string;
  attributes: [string, string | null][];
}

/**
 * The tags of a page as the generator writes them (attribute values always in
 * double quotes, so a value never holds a raw quote or "<"). A tag that does
 * not follow that shape, which is what an injection would leave, throws.
 */
export function parseTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const tag = /<(\/?[a-zA-Z][a-zA-Z0-9]*)/y;
  const attribute = /\s+([a-zA-Z][a-zA-Z0-9_:-]*)(?:="([^"<]*)")?/y;
  const end = /\s*\/?>/y;
  let i = 0;
  for (;;) {
    const lt = html.indexOf('<', i);
    if (lt < 0) return tags;
    if (html.startsWith('<!--', lt) || html.startsWith('<!doctype', lt)) {
      i = html.indexOf('>', lt) + 1;
      continue;
    }
    tag.lastIndex = lt;
    const open = tag.exec(html);
    if (!open) throw new Error(`a "<" that starts no tag at ${lt}: ${JSON.stringify(html.slice(lt, lt + 40))}`);
    const found: Tag = { name: open[1].toLowerCase(), attributes: [] };
    i = tag.lastIndex;
    for (;;) {
      attribute.lastIndex = i;
      const a = attribute.exec(html);
      if (!a) break;
      found.attributes.push([a[1].toLowerCase(), a[2] ?? null]);
      i = attribute.lastIndex;
    }
    end.lastIndex = i;
    if (!end.exec(html)) throw new Error(`a malformed <${found.name}> tag at ${lt}: ${JSON.stringify(html.slice(lt, lt + 80))}`);
    i = end.lastIndex;
    tags.push(found);
    // Script and style contents are not markup.
    if (found.name === 'script' || found.name === 'style') {
      const close = html.indexOf(`</${found.name}`, i);
      if (close > i) throw new Error(`an inline <${found.name}> at ${lt}`);
    }
  }
}

/**
 * A page for people: well-formed tags, no inline script, style or event
 * attribute (a strict CSP would block them, and data must never become one),
 * only the site's own scripts, links only to this site or http(s), and the
 * h1 as text.
 */
export function checkHtml(html: string, h1: string, what: string, out: string[]): void {
  let tags: Tag[];
  try {
    tags = parseTags(html);
  } catch (error) {
    out.push(`${what}: ${(error as Error).message}`);
    return;
  }
  for (const t of tags) {
    const attrs = new Map(t.attributes);
    if (t.name === 'style') out.push(`${what}: a <style> element`);
    if (t.name === 'script' && !/^\/static\/api\/[a-z-]+\.js$/.test(attrs.get('src') ?? '')) out.push(`${what}: a script that is not the site's own`);
    for (const [name, value] of t.attributes) {
      if (name === 'style' || name.startsWith('on')) out.push(`${what}: <${t.name} ${name}=…>`);
      if ((name === 'href' || name === 'src' || name === 'action') && !/^(\/|https?:\/\/|data:,$|#)/.test(value ?? '')) out.push(`${what}: <${t.name} ${name}="${value}">`);
    }
  }
  const heading = /<h1>([^<]*)<\/h1>/.exec(html);
  if (!heading || heading[1] !== htmlEscape(h1)) out.push(`${what}: h1 is ${JSON.stringify(heading?.[1])}, want ${JSON.stringify(htmlEscape(h1))}`);
}
