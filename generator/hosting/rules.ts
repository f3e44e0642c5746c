// Netlify routing as data, most specific first, printed to _redirects in
// the output folder (it depends on the number of list pages and the
// release's year, so it is build output, not configuration). Headers:
// hosting/headers.ts.
//
// Host behaviour that shaped the rules (checked with `netlify dev`, see
// test/e2e/netlify-routing.test.ts and clients-netlify.test.ts):
// - A rule matches path + query; the first matching rule wins; extra query
//   parameters and their order do not matter; "/x" also matches "/x/". So
//   every rule for a list names all the parameters it answers, rules with
//   more parameters come first, and parameters or combinations no file
//   answers are caught by error rules before any rule with data.
// - A forced rewrite to a file that does not exist answers with the site's
//   /404.html: rules never fall through to the next one. Production Netlify
//   sends 404; netlify dev keeps the rule's status (200). Filter values,
//   pages and ids are placeholders all the same (a literal rule per value
//   would be tens of thousands), also the unfiltered list's pages: a page
//   past the end answers "Not found." where the real service says
//   "Invalid page." (exact, it cost 5,300 literal rules for JASPAR 2024).
// - A placeholder may sit inside a file name: format=:format →
//   index.:format.txt answers every text format (jaspar, meme, transfac,
//   pfm, bed) of a filtered list with one rule where each needed its own.
// - A splat may follow a partial segment: /api/v1/matrix/MA* matches
//   /api/v1/matrix/MA0004.1 with "0004.1" as :splat. That is how sharded id
//   folders (routes/shard.ts) are reached: one set of rules per shard.
// - A redirect whose target has no query passes the request's whole query
//   on; one with a query passes nothing on: the page_size redirects name
//   every parameter they keep.
// - One rule answers a request (no chaining). Every combination of present
//   parameters (filters × page_size × page × format × release, on four list
//   endpoints) needs rules of its own: about 4,800 for JASPAR 2024 and as
//   many for a release ten times larger (scripts/count-rules.ts). Going
//   under Netlify's advice of 1,000 would take dropping answers (formats or
//   release= on the collection/taxon/species endpoints, 501s for page sizes
//   not pre-rendered) or an edge function.
// - A site under a path (--base-url https://example.org/jaspar/) gets every
//   from and to under that path; Netlify reads _redirects at the root of
//   what it publishes, so copy it there (test/e2e/base-path-and-shards.test.ts).
// - A rewrite may answer 501 (and 404); a 400 turns it into a redirect.
// - Literal rules never match a path with a double slash
//   (/api/v1//matrix/MA0600.2/); placeholder rules do.
// - A rule that is not forced is skipped when the request path is a file
//   (or a folder with index.html).
// - netlify dev walks the rules for every request (about 25 µs for each
//   rule on the request's path with a query), so the busiest come first.
import { INDEX_FORMATS, SITES_FORMATS, VIEW_FORMAT_SIZES, FILTER_COMBINATIONS } from '../routes/table.ts';
import { FORMAT_IDS, DEFAULT_FORMAT, type FormatId } from '../formats/registry.ts';
import { FLAT, type Layout } from '../routes/shard.ts';
import {
  API, DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, PAGE_SIZES, ROOT_DIR, detailDir, errorPaths, fileName, indexDir, listDir, outputPath, releaseDir,
  queryString, sitesApiDir, unsupportedPath, versionsDir, type FilterKey, type Filters,
} from '../routes/urls.ts';

export interface RedirectRule {
  from: string;
  query?: Record<string, string>;
  to: string;
  /** 200 rewrite, 301 redirect, 404/501 error rewrites. */
  status: 200 | 301 | 404 | 501;
  force: boolean;
}

export interface RoutingInput {
  /** Pages of the unfiltered list at the default page size. */
  pageCount: number;
  /** The mirrored release (release=<year>). */
  year: number;
  /** The release's folder layout (routes/shard.ts); flat when absent. */
  layout?: Layout;
  /** The shard folders of a sharded layout (routes/shard.ts shardsOf). */
  shards?: readonly string[];
  /** The path the site lives under ("" at the host's root, "/jaspar"): every rule's from and to start with it. */
  root?: string;
}

export { MAX_PAGE_SIZE, PAGE_SIZE_ALIASES, UNSUPPORTED_PARAMS } from '../routes/table.ts';
import { MAX_PAGE_SIZE, PAGE_SIZE_ALIASES, UNSUPPORTED_PARAMS } from '../routes/table.ts';
/** Formats whose file is index.<format>.txt: one placeholder rule (format=:format → index.:format.txt) answers them all. */
export const TEXT_FORMATS: readonly FormatId[] = FORMAT_IDS.filter((f) => fileName(f) === `index.${f}.txt`);

/** A list endpoint and the folder layout of its pages. */
interface ListFamily {
  from: string;
  /** The filter a path placeholder stands for (/api/v1/collections/:collection → collection). */
  pathFilter?: FilterKey;
  /** The filter combinations the query may add. */
  combos: readonly (readonly FilterKey[])[];
  dir: (filters: Filters, pageSize: number, page: string) => string;
  /** Whether a file answers the format at this page size; defaultShape: no filter, default page size. */
  answers: (format: FormatId, pageSize: number, defaultShape: boolean) => boolean;
  /** Text formats by one placeholder rule (matrix lists, not the unfiltered list at the default page size). */
  grouped?: boolean;
}

const answersMatrixList = (format: FormatId, pageSize: number, defaultShape: boolean) => defaultShape || VIEW_FORMAT_SIZES[format].includes(pageSize);
const answersIndex = (format: FormatId) => INDEX_FORMATS.includes(format);

const placeholders = (keys: readonly FilterKey[]): Filters => Object.fromEntries(keys.map((k) => [k, `:${k}`]));

/** The JSON error bodies the rules point at (path → body), written by the build. */
export function errorFiles(input: Pick<RoutingInput, 'year'>): [string, string][] {
  const supported = `Supported: format, page, page_size (${PAGE_SIZES.join(', ')}; larger values answer as ${MAX_PAGE_SIZE}), ` +
    `release=${input.year}, and the filters collection, tax_group, tax_id and version=latest, alone or as collection + tax_group + version. ` +
    'See /api/v1/live-api/ for what this mirror answers.';
  const files: [string, string][] = UNSUPPORTED_PARAMS.map((param) => [
    unsupportedPath(`param-${param}`),
    JSON.stringify({ detail: `This static mirror of the JASPAR API cannot answer the parameter "${param}": its responses are pre-rendered files. ${supported}${param === 'search' || param === 'name' ? ' To find matrices by name, use /search/.' : ''}` }),
  ]);
  files.push([unsupportedPath('filters'), JSON.stringify({ detail: `This static mirror has not pre-rendered this combination of filters. ${supported}` })]);
  files.push([unsupportedPath('page-size'), JSON.stringify({ detail: `This static mirror has not pre-rendered this page_size. ${supported}` })]);
  const sizes = (Object.entries(VIEW_FORMAT_SIZES) as [FormatId, readonly number[]][]).filter(([, s]) => s.length).map(([f, s]) => `${f}: ${s.join(', ')}`).join('; ');
  files.push([unsupportedPath('format-page-size'), JSON.stringify({ detail: `This static mirror has not pre-rendered this format at this page_size for filtered lists or page sizes other than ${DEFAULT_PAGE_SIZE}. Pre-rendered page sizes by format: ${sizes}. The whole release in each text format: /download/.` })]);
  files.push([unsupportedPath('sites-format'), JSON.stringify({ detail: `Binding sites are pre-rendered as ${SITES_FORMATS.join(' and ')} only.` })]);
  files.push([unsupportedPath('release'), JSON.stringify({ detail: `This static mirror serves JASPAR release ${input.year} only (release=${input.year}).` })]);
  files.push([unsupportedPath('bed-list'), JSON.stringify({ detail: `format=bed is pre-rendered for the unfiltered matrix list at page_size=${DEFAULT_PAGE_SIZE} only. The binding sites of one matrix: /api/v1/sites/<matrix_id>/ or /download/bed_files/<matrix_id>.bed.` })]);
  return files.map(([p, body]) => [p, `${body}\n`]);
}

/** Minimal filter sets no combination of the family holds: any request that has one is unsupported. */
function forbiddenSets(family: ListFamily): FilterKey[][] {
  const allowed = (set: FilterKey[]) => !set.includes(family.pathFilter as FilterKey) && family.combos.some((c) => set.every((k) => c.includes(k)));
  const forbidden: FilterKey[][] = [];
  const keys = [...FILTER_KEYS];
  for (let mask = 1; mask < 1 << keys.length; mask++) {
    const set = keys.filter((_, i) => mask & (1 << i));
    if (allowed(set)) continue;
    if (forbidden.some((f) => f.every((k) => set.includes(k)))) continue;
    forbidden.push(set);
  }
  return forbidden;
}

function listFamilyRules(family: ListFamily, release: string, tail: RedirectRule[] = []): RedirectRule[] {
  const rules: RedirectRule[] = [];
  const rule = (query: Record<string, string>, to: string, status: RedirectRule['status'] = 200): RedirectRule =>
    ({ from: family.from, ...(Object.keys(query).length ? { query } : {}), to, status, force: true });
  const pathFilters: Filters = family.pathFilter ? placeholders([family.pathFilter]) : {};

  // Parameters and combinations no file answers: explicit errors first, whatever else the request holds.
  for (const param of UNSUPPORTED_PARAMS) rules.push(rule({ [param]: ':value' }, unsupportedPath(`param-${param}`), 501));
  for (const set of forbiddenSets(family)) rules.push(rule(Object.fromEntries(set.map((k) => [k, `:${k}`])), unsupportedPath('filters'), 501));

  interface Shape { combo: readonly FilterKey[]; size: boolean; page: boolean; format: boolean; release: boolean }
  const shapes: Shape[] = [];
  for (const withRelease of [true, false]) {
    for (const combo of family.combos) for (const size of [true, false]) for (const page of [true, false]) for (const format of [true, false]) shapes.push({ combo, size, page, format, release: withRelease });
  }
  const weight = (s: Shape) => s.combo.length + Number(s.size) + Number(s.page) + Number(s.format);
  const block = (withRelease: boolean) => shapes.filter((s) => s.release === withRelease).sort((a, b) => weight(b) - weight(a));

  const emit = (shape: Shape, isDefaultTail: boolean) => {
    if (isDefaultTail) return;
    const filters: Filters = { ...pathFilters, ...placeholders(shape.combo) };
    const base: Record<string, string> = { ...placeholders(shape.combo) as Record<string, string> };
    if (shape.release) base.release = release;
    const page = shape.page ? ':page' : '1';
    const sizes = shape.size ? PAGE_SIZES : [DEFAULT_PAGE_SIZE];
    for (const size of sizes) {
      const query = { ...base, ...(shape.size ? { page_size: String(size) } : {}), ...(shape.page ? { page: ':page' } : {}) };
      const isDefaultShape = shape.combo.length === 0 && size === DEFAULT_PAGE_SIZE;
      if (!shape.format) {
        rules.push(rule(query, `/${outputPath(family.dir(filters, size, page), DEFAULT_FORMAT)}`));
        continue;
      }
      const dir = family.dir(filters, size, page);
      const answers = (format: FormatId) => family.answers(format, size, isDefaultShape);
      const known = (format: FormatId) => family.answers(format, MAX_PAGE_SIZE, false) || family.answers(format, DEFAULT_PAGE_SIZE, true);
      const unsupported = (format: FormatId) => unsupportedPath(format === 'bed' ? 'bed-list' : 'format-page-size');
      const textAnswered = TEXT_FORMATS.filter(answers);
      if (family.grouped && !isDefaultShape) {
        // One placeholder rule for the text formats (index.:format.txt), or
        // one 501 for every format no file answers here. An unknown format
        // then answers the 501 or Not found (a missing file) rather than a
        // rule of its own: 9 rules become 2 to 6 (see the header).
        const textAll = textAnswered.length > 0;
        for (const format of FORMAT_IDS) {
          if (TEXT_FORMATS.includes(format) && textAll && answers(format)) continue;
          if (answers(format)) rules.push(rule({ ...query, format }, `/${outputPath(dir, format)}`));
          else if (textAll && known(format)) rules.push(rule({ ...query, format }, unsupported(format), 501));
        }
        if (textAll) rules.push(rule({ ...query, format: ':format' }, `${dir}index.:format.txt`));
        else rules.push(rule({ ...query, format: ':format' }, unsupportedPath('format-page-size'), 501));
      } else {
        for (const format of FORMAT_IDS) {
          if (answers(format)) rules.push(rule({ ...query, format }, `/${outputPath(dir, format)}`));
          else if (known(format)) rules.push(rule({ ...query, format }, unsupported(format), 501));
        }
        rules.push(rule({ ...query, format: ':format' }, errorPaths.notFound, 404));
      }
    }
    if (shape.size) {
      // Above the real maximum the real service answers page_size=1000: so does the mirror, by a redirect that keeps every parameter.
      for (const alias of PAGE_SIZE_ALIASES) {
        const query = { ...base, page_size: alias, ...(shape.page ? { page: ':page' } : {}), ...(shape.format ? { format: ':format' } : {}) };
        rules.push(rule(query, `${family.from}/${queryString({ ...query, page_size: String(MAX_PAGE_SIZE) }, { sorted: true, raw: true })}`, 301));
      }
      // Repeated after each shape with a page size, on purpose: keeping only
      // the first (the later ones look unreachable) made netlify dev answer
      // ?collection=CORE&page_size=1000&format=meme with this 501. Its query
      // matching is not plain first-match-in-order; measured, not modelled.
      rules.push(rule({ ...base, page_size: ':page_size' }, unsupportedPath('page-size'), 501));
    }
  };
  for (const shape of block(true)) emit(shape, false);
  rules.push(rule({ release: ':release' }, unsupportedPath('release'), 501));
  for (const shape of block(false)) emit(shape, tail.length > 0 && shape.combo.length === 0 && !shape.size);
  rules.push(...tail);
  return rules;
}

export function redirectRules(input: RoutingInput): RedirectRule[] {
  const rules: RedirectRule[] = [];
  const rewrite = (query: Record<string, string> | undefined, to: string, from = LIST): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 200, force: true });
  const error = (query: Record<string, string> | undefined, to: string, from = LIST): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 404, force: true });
  const pageFile = (page: number | string, format: FormatId) => `/${outputPath(listDir(page), format)}`;
  const { pageCount } = input;
  const layout = input.layout ?? FLAT;
  const release = String(input.year);

  // Files that lie where a placeholder rule below would take their name for
  // an id or a collection: served as they are.
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    for (const format of INDEX_FORMATS) {
      const file = `/${outputPath(`${API}/${endpoint}/`, format)}`;
      rules.push(rewrite(undefined, file, file));
    }
  }
  rules.push(rewrite(undefined, `${LIST}/index.html`, `${LIST}/index.html`));

  // The unfiltered list at the default page size: pages are placeholders, so
  // a page past the end (or 0, or "abc") rewrites to a file that does not
  // exist and answers {"detail":"Not found."} (404 in production; status 200
  // on netlify dev), not the real service's {"detail":"Invalid page."}: an
  // exact answer needs a literal rule per (format, page), 5,300 rules for
  // JASPAR 2024 and 52,000 for a release ten times larger, above Netlify's
  // advice of 1,000 rules. page=last (DRF) is one literal rule per format.
  const defaultList: RedirectRule[] = [];
  for (const format of FORMAT_IDS) defaultList.push(rewrite({ format, page: 'last' }, pageFile(pageCount, format)));
  for (const format of FORMAT_IDS) defaultList.push(rewrite({ format, page: ':page' }, pageFile(':page', format)));
  for (const format of FORMAT_IDS) defaultList.push(rewrite({ format }, pageFile(1, format)));
  defaultList.push(error({ format: ':format' }, errorPaths.notFound));
  defaultList.push(rewrite({ page: 'last' }, pageFile(pageCount, DEFAULT_FORMAT)));
  defaultList.push(rewrite({ page: ':page' }, pageFile(':page', DEFAULT_FORMAT)));
  defaultList.push(rewrite(undefined, pageFile(1, DEFAULT_FORMAT)));

  const matrixDir = (filters: Filters, size: number, page: string) => listDir(page, size, filters);
  // The matrix list first (netlify dev walks the rules in order for every
  // request); the unfiltered list at the default page size comes last.
  rules.push(...listFamilyRules({ from: LIST, combos: FILTER_COMBINATIONS, dir: matrixDir, answers: answersMatrixList, grouped: true }, release, defaultList));

  // The matrices of one collection, taxonomic group or species: the filtered lists.
  for (const [endpoint, pathFilter] of [['collections', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const) {
    rules.push(...listFamilyRules({
      from: `${API}/${endpoint}/:${pathFilter}`,
      pathFilter,
      combos: FILTER_COMBINATIONS.filter((c) => c.includes(pathFilter)).map((c) => c.filter((k) => k !== pathFilter)),
      dir: matrixDir,
      answers: answersMatrixList,
      grouped: true,
    }, release));
  }
  // The index lists themselves.
  for (const endpoint of ['collections', 'taxon', 'species', 'releases']) {
    rules.push(...listFamilyRules({ from: `${API}/${endpoint}`, combos: [[]], dir: (_f, size, page) => indexDir(endpoint, page, size), answers: answersIndex }, release));
  }

  // Releases, binding sites, versions and details: one rule per format with
  // the key as a placeholder, and a forced placeholder rule for requests
  // without a format (the folders also hold index.html for static hosts).
  // An unknown key rewrites to a missing file: production Netlify answers
  // 404 with /404.html ({"detail":"Not found."}); `netlify dev` sends that
  // body with status 200 (README). Literal rules per id would keep dev's
  // status but cost 10,000+ rules, and netlify dev matches a path with a
  // double slash (/api/v1//matrix/MA0600.2/) only by placeholder rules.
  const keyed = (from: string, dir: string, formats: readonly FormatId[], unsupported?: string) => {
    for (const format of FORMAT_IDS) {
      if (formats.includes(format)) rules.push(rewrite({ format }, `${dir}${fileName(format)}`, from));
      else if (unsupported) rules.push({ from, query: { format }, to: unsupportedPath(unsupported), status: 501, force: true });
    }
    rules.push(error({ format: ':format' }, errorPaths.notFound, from));
    rules.push(rewrite(undefined, `${dir}${fileName(DEFAULT_FORMAT)}`, from));
  };
  keyed(`${API}/releases/:key`, releaseDir(':key'), INDEX_FORMATS);
  keyed(`${API}/sites/:id`, sitesApiDir(':id'), SITES_FORMATS, 'sites-format');
  if (layout.idFolders) {
    // Sharded ids (routes/shard.ts): Netlify cannot cut a path segment, so
    // each shard is matched by its prefix and the rest of the path is the
    // splat: /api/v1/matrix/MA0004.1, /api/v1/matrix/MA0004/versions →
    // /api/v1/matrix/MA/MA0004.1/…, /api/v1/matrix/MA/MA0004/versions/….
    // The shard folders' own files (path URLs) come first, as they are.
    for (const shard of input.shards ?? []) {
      rules.push(rewrite(undefined, `${LIST}/${shard}/:splat`, `${LIST}/${shard}/*`));
      keyed(`${LIST}/${shard}*`, `${LIST}/${shard}/${shard}:splat/`, FORMAT_IDS);
    }
  } else {
    keyed(`${LIST}/:id/versions`, versionsDir(layout, ':id'), FORMAT_IDS);
    keyed(`${LIST}/:id`, detailDir(layout, ':id'), FORMAT_IDS);
  }

  // The API root: /api/v1 only (a rule for "/api/v1" also matches "/api/v1/").
  for (const format of INDEX_FORMATS) rules.push(rewrite({ format }, `/${outputPath(ROOT_DIR, format)}`, API));
  rules.push(error({ format: ':format' }, errorPaths.notFound, API));
  rules.push(rewrite(undefined, `/${outputPath(ROOT_DIR, DEFAULT_FORMAT)}`, API));

  // Anything else under the API that is not a file: the real service's 404.
  // Not forced, so every existing file (path URLs) is still served.
  rules.push({ from: `${API}/*`, to: errorPaths.notFound, status: 404, force: false });
  return input.root ? rules.map((r) => underRoot(r, input.root!)) : rules;
}

/** A rule for a site served under a path: its from, and its to when it is a path, start with that path. */
function underRoot(rule: RedirectRule, root: string): RedirectRule {
  return { ...rule, from: `${root}${rule.from}`, to: rule.to.startsWith('/') ? `${root}${rule.to}` : rule.to };
}

export function printRedirects(rules: RedirectRule[]): string {
  const lines = ['# Generated by the JASPAR static API build: do not edit (generator/hosting/rules.ts).'];
  for (const r of rules) {
    const query = r.query ? Object.entries(r.query).map(([k, v]) => ` ${k}=${v}`).join('') : '';
    lines.push(`${r.from}${query} ${r.to} ${r.status}${r.force ? '!' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
