// The real service's other endpoints, pre-rendered: the API root, the
// collections, taxonomic groups, species and releases (each a paginated
// {count,next,previous,results} list, with the matrices of one of them
// answered by the filtered matrix lists) and the binding sites of a matrix.
import type { Matrix, Release, ReleaseInfo } from '../dataset/types.ts';
import { JASPAR_RELEASES, type JasparRelease } from '../dataset/releases.ts';
import { hasSites, matrixDigest } from '../dataset/digest.ts';
import type { FormatId } from '../formats/registry.ts';
import { PyFloat, type Json, type Link, type Nav, type Resource } from '../formats/types.ts';
import { formatLinks, navRoot, pagesNav, type PlannedResource } from './resources.ts';
import { paginate } from '../routes/paginate.ts';
import type { Layout } from '../routes/shard.ts';
import {
  DEFAULT_PAGE_SIZE, DOCS_DIR, OPENAPI_JSON, PAGE_SIZES, ROOT_DIR, apiPageUrl, detailDir, indexDir, listDir, indexRequest, indexQueryUrl, indexUrl, pageHref, pathUrl,
  releaseDir, sitesApiDir, sitesUrl, filteredListUrl, listUrl, releaseUrl, ROUTES, type FilterKey, type LinkStyle,
} from '../routes/urls.ts';
import { filterValues, latestVersions } from './views.ts';

import { INDEX_FORMATS, SITES_FORMATS } from '../routes/table.ts';

/** A release the site holds: its description, how many matrices it mirrors and where they are listed. */
export interface HeldRelease {
  info: ReleaseInfo;
  matrices: number;
  /** The matrix list of this release; default: the site's list (a site of one release). */
  matrixUrl?: string;
}

/** The one release a site built from `release` holds. */
export const heldRelease = (release: Release): HeldRelease => ({ info: release.info, matrices: release.matrices.length });

/** Every JASPAR release (dataset/releases.ts), and a release the site holds that JASPAR has not published (a year of its own) after them. */
function allReleases(held: HeldRelease[]): JasparRelease[] {
  const own = held.filter((h) => !JASPAR_RELEASES.some((r) => r.year === h.info.year)).map((h): JasparRelease => ({
    number: h.info.number ?? 0, year: h.info.year, name: h.info.name, citation: h.info.citation, doi: null, pubmedId: null,
  }));
  return [...JASPAR_RELEASES, ...own];
}

/** An index list: its endpoint name, its items and, where an item has matrices, the filter they answer to. */
export interface IndexList {
  endpoint: 'collections' | 'taxon' | 'species' | 'releases';
  title: string;
  items: { [key: string]: Json }[];
  /** The matrix filter an item's own URL (/api/v1/<endpoint>/<value>/) stands for. */
  filter?: FilterKey;
  /** The pages for people's table: its columns and one row per item, in item order. */
  table?: { columns: string[]; rows: NonNullable<Nav['table']>['rows'] };
}

/** NCBI Taxonomy's page of a species. */
export const taxonomyUrl = (taxId: number | string) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${taxId}`;

/** The matrices of each value of a filter, all versions and latest versions only (for the index lists' tables). */
function countsBy(release: Release, key: 'collection' | 'tax_group' | 'tax_id'): Map<string, { all: number; latest: number }> {
  const latest = latestVersions(release.matrices);
  const counts = new Map<string, { all: number; latest: number }>();
  for (const m of release.matrices) {
    const values = key === 'collection' ? [m.collection] : key === 'tax_group' ? [m.taxGroup] : m.species.flatMap((s) => (s.taxId === null ? [] : [String(s.taxId)]));
    for (const v of new Set(values)) {
      const c = counts.get(v) ?? { all: 0, latest: 0 };
      c.all++;
      if (latest.has(m)) c.latest++;
      counts.set(v, c);
    }
  }
  return counts;
}

/** The index lists' titles (pages for people; the edge handler's pages at other page sizes). */
export const INDEX_TITLES: Record<IndexList['endpoint'], string> = { collections: 'Collections', taxon: 'Taxonomic groups', species: 'Species', releases: 'Releases' };

/** held: the releases the site holds (default: the one built from `release`); /api/v1/releases/ lists every JASPAR release, and those held link to their matrices. */
export function indexLists(release: Release, base: string, held: HeldRelease[] = [heldRelease(release)], links: LinkStyle = 'query'): IndexList[] {
  const values = filterValues(release);
  const speciesNames = new Map<string, string>();
  for (const m of release.matrices) for (const s of m.species) if (s.taxId !== null && !speciesNames.has(String(s.taxId))) speciesNames.set(String(s.taxId), s.name);
  // Rows for people: each value links its pre-rendered list (all versions) and the latest versions only.
  const listCells = (key: 'collection' | 'tax_group' | 'tax_id', value: string, label: string) => {
    const c = counts.get(key)!.get(value) ?? { all: 0, latest: 0 };
    return [
      { label, href: listDir(1, DEFAULT_PAGE_SIZE, { [key]: value }) },
      { label: String(c.all), href: listDir(1, DEFAULT_PAGE_SIZE, { [key]: value }) },
      { label: String(c.latest), href: listDir(1, DEFAULT_PAGE_SIZE, { [key]: value, version: 'latest' }) },
    ];
  };
  const counts = new Map((['collection', 'tax_group', 'tax_id'] as const).map((key) => [key, countsBy(release, key)]));
  return [
    {
      endpoint: 'collections',
      title: INDEX_TITLES.collections,
      filter: 'collection',
      items: values.collection.map((name) => ({ name, url: filteredListUrl(base, 'collection', name, links) })),
      table: { columns: ['Collection', 'Matrices', 'Latest versions'], rows: values.collection.map((name) => listCells('collection', name, name)) },
    },
    {
      endpoint: 'taxon',
      title: INDEX_TITLES.taxon,
      filter: 'tax_group',
      items: values.tax_group.map((name) => ({ name, url: filteredListUrl(base, 'tax_group', name, links) })),
      table: { columns: ['Taxonomic group', 'Matrices', 'Latest versions'], rows: values.tax_group.map((name) => listCells('tax_group', name, name)) },
    },
    {
      endpoint: 'species',
      title: INDEX_TITLES.species,
      filter: 'tax_id',
      items: values.tax_id.map((taxId) => ({
        tax_id: Number(taxId),
        species: speciesNames.get(taxId) ?? '',
        url: filteredListUrl(base, 'tax_id', taxId, links),
        matrix_url: filteredListUrl(base, 'tax_id', taxId, links, 'query'),
      })),
      table: {
        columns: ['Species', 'Matrices', 'Latest versions', 'NCBI Taxonomy'],
        rows: values.tax_id.map((taxId) => [...listCells('tax_id', taxId, speciesNames.get(taxId) || taxId), { label: taxId, href: taxonomyUrl(taxId), external: true as const }]),
      },
    },
    {
      endpoint: 'releases',
      title: INDEX_TITLES.releases,
      items: allReleases(held).map((r) => releaseBody(r, held.find((h) => h.info.year === r.year) ?? null, base, links)),
      table: {
        columns: ['Release', 'Year', 'Matrices'],
        // A release the site holds links its list: this one's by path, another's by its absolute URL (a
        // root-relative link would stay in this release's site).
        rows: allReleases(held).map((r) => {
          const h = held.find((x) => x.info.year === r.year);
          const href = r.year === release.info.year ? listDir(1) : h?.matrixUrl ?? listDir(1);
          return [h ? { label: r.name, href } : r.name, String(r.year), h ? String(h.matrices) : 'not mirrored'];
        }),
      },
    },
  ];
}

/**
 * One JASPAR release as /api/v1/releases/ lists it: number, year, name and
 * the paper (citation, DOI, PubMed id), as the service lists its releases.
 * held: the site's copy of it, or null. A release the site holds says how
 * many matrices it mirrors, which of JASPAR's collections it mirrors
 * ("mirrored") and which it does not, with the reason ("not published"),
 * and links its matrices; any other has matrices, collections and
 * matrix_url null.
 */
export function releaseBody(entry: JasparRelease, held: HeldRelease | null, base: string, links: LinkStyle = 'query'): { [key: string]: Json } {
  const info = held?.info;
  return {
    release_number: info?.number ?? (entry.number === 0 ? null : entry.number),
    year: entry.year,
    name: info?.name ?? entry.name,
    citation: info?.citation || entry.citation,
    doi: entry.doi,
    pubmed_id: entry.pubmedId,
    mirrored: held !== null,
    matrices: held?.matrices ?? null,
    collections: info && info.collections.length > 0 ? Object.fromEntries(info.collections.map((c) => [c.name, c.status])) : null,
    url: releaseUrl(base, entry.year, links),
    matrix_url: held ? (held.matrixUrl ?? listUrl(base, links)) : null,
  };
}

/** ?format=api: on every host the API root's folder URL answers JSON, the API's default. */
export const API_CRUMB: Link = { label: 'API root', href: apiPageUrl(ROOT_DIR) };


/** Every page, at every page size, of an index list. */
export function planIndexList(list: IndexList, base: string, links: LinkStyle = 'query'): PlannedResource[] {
  const planned: PlannedResource[] = [];
  const rowOf = new Map(list.table ? list.items.map((item, i) => [item, list.table!.rows[i]]) : []);
  for (const pageSize of PAGE_SIZES) {
    for (const page of paginate(list.items, pageSize)) {
      const dir = indexDir(list.endpoint, page.number, pageSize);
      planned.push({
        dir,
        resource: {
          kind: 'index',
          // next/previous depend on the requested format: withFormat() fills them in.
          body: { count: list.items.length, next: null, previous: null, results: page.items },
          matrices: [],
          nav: {
            title: list.title,
            dir,
            request: indexRequest(list.endpoint, 'api', page.number, pageSize),
            formats: formatLinks(dir, INDEX_FORMATS),
            pages: pagesNav(page, (n) => indexDir(list.endpoint, n, pageSize)),
            ...(list.table ? { table: { columns: list.table.columns, rows: page.items.map((item) => rowOf.get(item)!) } } : {}),
            breadcrumbs: [API_CRUMB, { label: list.title, href: indexDir(list.endpoint) }],
            ...navRoot(base),
          },
        },
        neighbours: { previous: page.previous, next: page.next, query: (format, n) => indexQueryUrl(base, list.endpoint, format, n, pageSize, links) },
        formats: INDEX_FORMATS,
      });
    }
  }
  return planned;
}

/** The API root: every endpoint, as DRF's root view lists them. */
export function planRoot(release: Release, base: string, links: LinkStyle = 'query'): PlannedResource {
  const body: { [key: string]: Json } = {
    matrix: listUrl(base, links),
    collections: indexUrl(base, 'collections', links),
    taxon: indexUrl(base, 'taxon', links),
    species: indexUrl(base, 'species', links),
    releases: indexUrl(base, 'releases', links),
    openapi: `${base}${OPENAPI_JSON}`,
    docs: `${base}${DOCS_DIR}`,
  };
  return {
    dir: ROOT_DIR,
    resource: {
      kind: 'index',
      body,
      matrices: [],
      nav: { title: `API root – ${release.info.name}`, dir: ROOT_DIR, request: apiPageUrl(ROOT_DIR), formats: formatLinks(ROOT_DIR, INDEX_FORMATS), breadcrumbs: [API_CRUMB], ...navRoot(base) },
    },
    formats: INDEX_FORMATS,
  };
}

/** /api/v1/releases/<year>/ and /api/v1/releases/<number>/ of every JASPAR release (1 to 11), as the list describes them; held as for indexLists. */
export function planReleases(release: Release, base: string, held: HeldRelease[] = [heldRelease(release)], links: LinkStyle = 'query'): PlannedResource[] {
  return allReleases(held).flatMap((entry) => {
    const body = releaseBody(entry, held.find((h) => h.info.year === entry.year) ?? null, base, links);
    const keys = [String(entry.year), ...(body.release_number === null ? [] : [String(body.release_number)])];
    return keys.map((key) => {
      const dir = releaseDir(key);
      return {
        dir,
        resource: {
          kind: 'index',
          body,
          matrices: [],
          nav: { title: String(body.name), dir, request: apiPageUrl(dir), formats: formatLinks(dir, INDEX_FORMATS), breadcrumbs: [API_CRUMB, { label: 'Releases', href: indexDir('releases') }], ...navRoot(base) },
        },
        formats: INDEX_FORMATS,
      } satisfies PlannedResource;
    });
  });
}

/** A BED score: an integer, a float (printed as Python prints it) or, if not a number, the text. */
function scoreJson(score: string): Json {
  const value = Number(score);
  if (score.trim() === '' || !Number.isFinite(value)) return score;
  return Number.isInteger(value) && !/[.eE]/.test(score) ? value : new PyFloat(value);
}

/** A BED line as JSON: chrom, start, end, then name, score and strand where the file has them. */
function siteJson(line: string): { [key: string]: Json } {
  const [chrom, start, end, name, score, strand] = line.split('\t');
  return {
    chrom,
    start: Number(start),
    end: Number(end),
    name: name ?? null,
    score: score === undefined || score === '.' ? null : scoreJson(score),
    strand: strand === undefined || strand === '.' ? null : strand,
  };
}

/** /api/v1/sites/<matrix_id>/ for every matrix the release has binding sites for; their pages link the matrix's folder in the site's layout. */
export function planSites(release: Release, base: string, layout: Layout): PlannedResource[] {
  return release.matrices
    .filter((m): m is Matrix & { sites: string } => hasSites(m))
    .sort((a, b) => (a.matrixId < b.matrixId ? -1 : 1))
    .map((m) => {
      const dir = sitesApiDir(m.matrixId);
      return {
        dir,
        // Built when asked for (once per build, when rendered): the sites as JSON are ten times their BED text.
        get resource(): Resource {
          const lines = m.sites.split('\n').filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('track') && !l.startsWith('browser'));
          return {
            kind: 'index',
            body: { matrix_id: m.matrixId, name: m.name, sites_url: sitesUrl(base, m.matrixId), count: lines.length, results: lines.map(siteJson) },
            matrices: [m],
            nav: {
              title: `Binding sites of ${m.matrixId} ${m.name}`,
              dir,
              request: apiPageUrl(dir),
              formats: formatLinks(dir, SITES_FORMATS),
              breadcrumbs: [API_CRUMB, { label: m.matrixId, href: pageHref(detailDir(layout, m.matrixId)) }],
              ...navRoot(base),
            },
          };
        },
        get key() {
          return `sites ${matrixDigest(m)}`;
        },
        first: m,
        formats: SITES_FORMATS,
      };
    });
}

/**
 * Folders holding a copy of another resource's first page, in that
 * resource's formats: [copy's folder, the resource's folder]. The index
 * lists' first pages in their endpoint folders (so /api/v1/species/ works on
 * any static server), and /api/v1/collections/CORE/ (the `url` of a
 * collection, taxon or species) holding the first page of its matrices, so
 * that any static server answers it; Netlify's rules answer its queries.
 */
export function firstPageCopies(values: Record<FilterKey, string[]>): [into: string, from: string][] {
  const copies: [string, string][] = ['collections', 'taxon', 'species', 'releases'].map((endpoint) => [ROUTES.index.build({ endpoint }), indexDir(endpoint, 1)]);
  for (const [route, key] of [['collection', 'collection'], ['taxon', 'tax_group'], ['species', 'tax_id']] as const) {
    for (const value of values[key]) copies.push([ROUTES[route].build({ [key]: value }), listDir(1, DEFAULT_PAGE_SIZE, { [key]: value })]);
  }
  return copies;
}

/** Everything beyond /api/v1/matrix; held: the releases the site holds (default: this one alone). */
export function planEndpoints(release: Release, base: string, layout: Layout, held: HeldRelease[] = [heldRelease(release)], links: LinkStyle = 'query'): PlannedResource[] {
  return [planRoot(release, base, links), ...indexLists(release, base, held, links).flatMap((l) => planIndexList(l, base, links)), ...planReleases(release, base, held, links), ...planSites(release, base, layout)];
}
