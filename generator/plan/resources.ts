// Plans every resource of the API from a release: the list pages, each
// matrix, each base id (its latest version) and each base id's versions, as
// JSON bodies exactly as the real service writes them plus navigation.
import type { Matrix, Release } from '../dataset/types.ts';
import { FORMAT_IDS, type FormatId } from '../formats/registry.ts';
import { PyFloat, type Json, type Link, type Nav, type Resource } from '../formats/types.ts';
import { paginate, type Page } from '../routes/paginate.ts';
import type { Layout } from '../routes/shard.ts';
import {
  DEFAULT_PAGE_SIZE, FILTER_KEYS, LIST, PAGE_SIZES, detailDir, detailUrl, listDir, listQueryUrl, logoPath, logoUrl, pageHref, pathUrl, sitesUrl,
  versionsDir, versionsUrl, basePathOf, apiPageUrl, queryString, ROUTES, type FilterKey, type Filters, type LinkStyle,
} from '../routes/urls.ts';
import { filterValues, listOrder, listViews } from './views.ts';
import { digestsOf, hasSites, hash128, matrixDigest } from '../dataset/digest.ts';

import { VIEW_FORMAT_SIZES } from '../routes/table.ts';
/** The formats of a list view page at a page size. */
export const viewFormats = (pageSize: number): readonly FormatId[] => FORMAT_IDS.filter((f) => VIEW_FORMAT_SIZES[f].includes(pageSize));

export interface PlannedResource {
  /** Folder of the resource (path URL, ends with "/"). */
  dir: string;
  resource: Resource;
  /** List pages: the neighbours, whose query URLs keep the requested format, page size and filters. */
  neighbours?: { previous: number | null; next: number | null; query: (format: FormatId, page: number) => string };
  /** The formats this resource is pre-rendered in (all when absent). */
  formats?: readonly FormatId[];
  /**
   * What the resource is built from, cheaply, without building it: its
   * records' digests and its place (page, view). With the task's paths,
   * release and the build's salt it keys the rendering task, so that a
   * rebuild renders only what a changed record affects (pipeline/schedule.ts).
   * Absent: the task is keyed by the resource itself, built.
   */
  readonly key?: string;
  /**
   * What the key is made of but its records' digests (pipeline/kept-plan.ts): where the resource lies,
   * its place in its view and which records it shows, by id. A rebuild whose resource has the previous
   * build's shape and shows none of the records whose digest changed has its key, and is not planned
   * again. Absent: planned by every build.
   */
  readonly shape?: string;
  /** Whether it shows one of these records (with shape). */
  holds?(changed: ReadonlySet<Matrix>): boolean;
  /**
   * The first record it shows, without building it: the render goes through
   * the records in list order (pipeline/schedule.ts renderOrder), so that the
   * records the workers hold serve every view's pages over them at once.
   */
  readonly first?: Matrix;
  /**
   * The resource as plain data a render worker rebuilds it from (plannedFromWire): its records, its
   * place and what its view or base id share, so that its body is built there, not here and then
   * serialized (pipeline/wire.ts). Absent: the resource itself travels.
   */
  readonly wire?: PlannedWire;
}

/**
 * A list page or a base id's resource as data (PlannedResource.wire). head: one object for every page of
 * a view (or resource of a base id), so that it crosses to a worker once; items, versions: the records.
 */
export type PlannedWire =
  | { kind: 'list'; head: Omit<PagedView, 'matrices'>; dir: string; number: number; last: number; count: number; items: Matrix[] }
  | { kind: 'base'; head: Omit<BaseIdGroup, 'versions'>; dir: string; which: BaseIdResource['kind']; versions: Matrix[]; at: number };

/** The planned resource its wire describes: the same resource, in every format, as the one it was taken from. */
export function plannedFromWire(w: PlannedWire): PlannedResource {
  if (w.kind === 'list') return new WiredListPage({ ...w.head, matrices: [] }, w.number, w.last, w.dir, w.items, w.count);
  return new BaseIdResource({ ...w.head, versions: w.versions }, w.which, w.at < 0 ? null : w.versions[w.at], w.dir);
}

/** What a view's pages (or a base id's resources) share but their records, made once each (a WeakMap: the plan's views go with it). */
const heads = new WeakMap<object, object>();
function headOf<T extends object, K extends keyof T>(whole: T, records: K): Omit<T, K> {
  let head = heads.get(whole) as Omit<T, K> | undefined;
  if (head === undefined) {
    const { [records]: _records, ...rest } = whole;
    heads.set(whole, (head = rest));
  }
  return head;
}

/** What the list pages' filter form offers (`values`: views.ts filterValues): the pre-rendered collections and taxonomic groups. */
export const listChoices = (values: Record<FilterKey, string[]>): NonNullable<Nav['view']>['choices'] => ({ collection: values.collection, tax_group: values.tax_group });

/** Pages of the unfiltered list at the default page size. */
export const defaultPageCount = (release: Release) => Math.max(1, Math.ceil(release.matrices.length / DEFAULT_PAGE_SIZE));

/** The formats a planned resource is written in. */
export const formatsOf = (p: PlannedResource): readonly FormatId[] => p.formats ?? FORMAT_IDS;

export { listOrder };

/** A list item; it reads only these fields (the edge handler passes its index rows). Its logo URL names the file in the site's layout. */
export function listItem(m: Pick<Matrix, 'matrixId' | 'name' | 'collection' | 'baseId' | 'version'>, base: string, layout: Layout, links: LinkStyle = 'query'): Json {
  return {
    matrix_id: m.matrixId,
    name: m.name,
    collection: m.collection,
    base_id: m.baseId,
    version: String(m.version),
    sequence_logo: logoUrl(base, layout, m.matrixId),
    url: detailUrl(base, m.matrixId, links, layout),
  };
}

/**
 * listItem, one object a record while the base URL, layout and link style stay: a record is on dozens of list
 * pages (every view it is in, at every page size) and its versions', which a worker builds one after the other
 * (pipeline/render.ts), and the formats print an item once a record when it is the one they printed before
 * (formats/records.ts perItem: compared by identity first, then field by field). A list body is never changed
 * once built, so its items may be shared. The layout is compared by its fields: a worker gets each task's
 * view head (its layout with it) as a copy of its own.
 */
function shownItem(m: Matrix, base: string, layout: Layout, links: LinkStyle): Json {
  const kept = shownItems.get(m);
  if (kept !== undefined && kept.base === base && kept.links === links && kept.layout.shard === layout.shard && kept.layout.idFolders === layout.idFolders && kept.layout.logos === layout.logos) return kept.item;
  const item = listItem(m, base, layout, links);
  shownItems.set(m, { base, layout: { ...layout }, links, item });
  return item;
}
const shownItems = new WeakMap<Matrix, { base: string; layout: Layout; links: LinkStyle; item: Json }>();

export function detailBody(m: Matrix, base: string, layout: Layout, links: LinkStyle = 'query'): Json {
  const body: { [key: string]: Json } = {
    matrix_id: m.matrixId,
    name: m.name,
    base_id: m.baseId,
    version: m.version,
    collection: m.collection,
    sequence_logo: logoUrl(base, layout, m.matrixId),
    versions_url: versionsUrl(base, m.baseId, links, layout),
    sites_url: hasSites(m) ? sitesUrl(base, m.matrixId) : null,
    pfm: { A: floats(m.pfm.A), C: floats(m.pfm.C), G: floats(m.pfm.G), T: floats(m.pfm.T) },
    class: m.tfClass,
    family: m.tfFamily,
  };
  // Single-valued annotations are left out when the release has no value.
  if (m.taxGroup) body.tax_group = m.taxGroup;
  if (m.dataType) body.type = m.dataType;
  if (m.source) body.source = m.source;
  if (m.comment) body.comment = m.comment;
  body.uniprot_ids = m.uniprotIds;
  body.pubmed_ids = m.pubmedIds;
  body.species = m.species.map((s) => ({ tax_id: s.taxId, name: s.name }));
  return body;
}

const floats = (values: number[]) => values.map((v) => new PyFloat(v));

/** The nav field of a site served under a path (none at the host's root, so pages there stay as they were). */
export function navRoot(base: string): { root?: string } {
  let nav = navRoots.get(base);
  if (nav === undefined) {
    const root = basePathOf(base);
    navRoots.set(base, (nav = root ? { root } : {}));
  }
  return nav;
}

/** navRoot's answers by base URL (a site has one or two): basePathOf parses the URL twice, and every page's nav asks
 *  (0.1 s of a render worker's 2.7 s in a rebuild after a matrix is removed, at load). Spread, never changed. */
const navRoots = new Map<string, { root?: string }>();

export function formatLinks(dir: string, formats: readonly FormatId[] = FORMAT_IDS): Nav['formats'] {
  return formats.map((format) => ({ format, href: format === 'api' ? pageHref(dir) : pathUrl(dir, format) }));
}

export const LIST_CRUMB: Link = { label: 'Matrix list', href: listDir(1) };

/** Pagination for people: first, previous, a window of three pages each side, next, last. */
export function pagesNav(page: Page<unknown>, dirOf: (n: number) => string): NonNullable<Nav['pages']> {
  const window: Link[] = [];
  for (let n = Math.max(1, page.number - 3); n <= Math.min(page.last, page.number + 3); n++) window.push({ label: String(n), href: dirOf(n) });
  return {
    current: page.number,
    last: page.last,
    first: dirOf(1),
    previous: page.previous === null ? null : dirOf(page.previous),
    next: page.next === null ? null : dirOf(page.next),
    lastHref: dirOf(page.last),
    window,
  };
}

/** "collection=CORE, version=latest" for titles. */
export function describeFilters(filters: Filters): string {
  return FILTER_KEYS.filter((k) => filters[k] !== undefined).map((k) => `${k}=${filters[k]}`).join(', ');
}

/** links: how bodies link (routes/urls.ts LinkStyle). */
export function planResources(release: Release, base: string, layout: Layout, links: LinkStyle = 'query'): PlannedResource[] {
  const planned: PlannedResource[] = [];
  const choices = listChoices(filterValues(release));
  for (const view of listViews(release)) {
    for (const pageSize of PAGE_SIZES) planned.push(...planListPages(view.matrices, pageSize, view.filters, base, layout, choices, links));
  }
  for (const [baseId, matrices] of [...byBaseId(release.matrices)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) planned.push(...planBaseId(baseId, matrices, base, layout, links));
  return planned;
}

/** The matrices of each base id, in the order given (planBaseId orders the versions); the edge handler's compact
 *  rendering groups them the same way (edge/render-missing.ts). */
export function byBaseId(matrices: readonly Matrix[]): Map<string, Matrix[]> {
  const groups = new Map<string, Matrix[]>();
  for (const m of matrices) {
    const group = groups.get(m.baseId);
    if (group === undefined) groups.set(m.baseId, [m]);
    else group.push(m);
  }
  return groups;
}

/**
 * Every resource of one base id: each version, the base id (answered with its
 * latest version) and its versions. `unsorted`: the base id's matrices. The
 * edge handler renders a compact build's missing files with this too
 * (edge/render-missing.ts).
 */
export function planBaseId(baseId: string, unsorted: readonly Matrix[], base: string, layout: Layout, links: LinkStyle = 'query'): PlannedResource[] {
  const versions = [...unsorted].sort((a, b) => a.version - b.version);
  const group: BaseIdGroup = { baseId, versions, base, layout, links };
  // A base id without a version answers with its latest version.
  return [
    ...versions.map((m) => new BaseIdResource(group, 'detail', m, detailDir(layout, m.matrixId))),
    new BaseIdResource(group, 'latest', versions[versions.length - 1], detailDir(layout, baseId)),
    new BaseIdResource(group, 'versions', null, versionsDir(layout, baseId)),
  ];
}

/** What the resources of one base id share (planBaseId). */
interface BaseIdGroup {
  baseId: string;
  /** By version. */
  versions: Matrix[];
  base: string;
  layout: Layout;
  links: LinkStyle;
}

/**
 * A version's detail, the base id's (its latest version) or its versions.
 * Resources are built when asked for (once per build, when rendered), not
 * held; the plan holds every one until it is rendered (34,000 for the 3x
 * synthetic release), so the class's getters build them: no closures or
 * links of each resource's own (740 bytes a resource as object literals
 * with getters).
 */
class BaseIdResource implements PlannedResource {
  constructor(private readonly group: BaseIdGroup, readonly kind: 'detail' | 'latest' | 'versions', private readonly matrix: Matrix | null, readonly dir: string) {}

  get wire(): PlannedWire {
    const { versions } = this.group;
    return { kind: 'base', head: headOf(this.group, 'versions'), dir: this.dir, which: this.kind, versions, at: this.matrix === null ? -1 : versions.indexOf(this.matrix) };
  }

  get first(): Matrix {
    return this.matrix ?? this.group.versions[0];
  }

  get resource(): Resource {
    const { baseId, versions, base, layout, links } = this.group;
    const versionsCrumb: Link = { label: `${baseId} versions`, href: pageHref(versionsDir(layout, baseId)) };
    if (this.kind !== 'versions') {
      const versionLinks: Link[] = versions.map((v) => ({ label: v.matrixId, href: pageHref(detailDir(layout, v.matrixId)) }));
      const at = this.kind === 'latest' ? { request: ROUTES.base.build({ base_id: baseId }), dir: detailDir(layout, baseId) } : undefined;
      return detailResource(this.matrix!, base, layout, links, versionLinks, versionsCrumb, at);
    }
    return {
      kind: 'versions',
      body: { count: versions.length, results: versions.map((v) => shownItem(v, base, layout, links)) },
      matrices: versions,
      nav: {
        title: `${baseId} versions`,
        dir: versionsDir(layout, baseId),
        request: apiPageUrl(ROUTES.versions.build({ base_id: baseId })),
        formats: formatLinks(versionsDir(layout, baseId)),
        breadcrumbs: [LIST_CRUMB, versionsCrumb],
        ...navRoot(base),
      },
    };
  }

  get shape(): string {
    return `${this.kind} ${this.matrix?.matrixId ?? ''} ${this.group.versions.map((v) => v.matrixId).join(',')}`;
  }

  holds(changed: ReadonlySet<Matrix>): boolean {
    return this.kind === 'versions' ? this.group.versions.some((v) => changed.has(v)) : changed.has(this.matrix!);
  }

  // A version's page links the base id's other versions by id.
  get key(): string {
    const { versions } = this.group;
    if (this.kind === 'versions') return `versions ${digestsOf(versions)}`;
    return `${this.kind} ${matrixDigest(this.matrix!)} ${versions.map((v) => v.matrixId).join(',')}`;
  }
}

/** `at`: where a base id answers with its latest version (its public URL and its own folder). */
function detailResource(m: Matrix, base: string, layout: Layout, links: LinkStyle, versions: Link[], versionsCrumb: Link, at = { request: ROUTES.detail.build({ matrix_id: m.matrixId }), dir: detailDir(layout, m.matrixId) }): Resource {
  const request = at.request;
  return {
    kind: 'detail',
    body: detailBody(m, base, layout, links),
    matrices: [m],
    nav: {
      title: `${m.matrixId} ${m.name}`,
      // The folder its files lie in (a base id's own, in its shard when sharded).
      dir: at.dir,
      request: apiPageUrl(request),
      formats: formatLinks(detailDir(layout, m.matrixId)),
      logo: logoPath(layout, m.matrixId),
      versions,
      breadcrumbs: [LIST_CRUMB, versionsCrumb, { label: m.matrixId, href: pageHref(detailDir(layout, m.matrixId)) }],
      ...navRoot(base),
    },
  };
}

/** The resource as a request for `format` sees it: list pages carry next/previous in that format. */
export function withFormat(planned: PlannedResource, format: FormatId, resource: Resource = planned.resource, neighbours = planned.neighbours): Resource {
  if (!neighbours) return resource;
  const body = resource.body as { [key: string]: Json };
  const query = (page: number | null) => (page === null ? null : neighbours.query(format, page));
  return { ...resource, body: { count: body.count, next: query(neighbours.next), previous: query(neighbours.previous), results: body.results } };
}

/** The formats a list view is pre-rendered in. */
export const listViewFormats = (pageSize: number, filters: Filters): readonly FormatId[] =>
  pageSize === DEFAULT_PAGE_SIZE && Object.keys(filters).length === 0 ? FORMAT_IDS : viewFormats(pageSize);

/** Navigation for people of one pre-rendered list page (the edge handler renders the same for the page's own query URL). */
export function listPageNav(filters: Filters, pageSize: number, page: Page<unknown>, base: string, choices?: NonNullable<Nav['view']>['choices']): Nav {
  const isDefault = pageSize === DEFAULT_PAGE_SIZE && Object.keys(filters).length === 0;
  const described = describeFilters(filters);
  // The request line of the page for people: format and page, then the filters and page size by key.
  const rest = [...Object.entries(filters), ...(pageSize === DEFAULT_PAGE_SIZE ? [] : [['page_size', String(pageSize)]])].sort(([a], [b]) => (a < b ? -1 : 1)) as [string, string][];
  const dir = listDirOf(pageSize, filters);
  const crumbs: Link[] = isDefault ? [LIST_CRUMB] : [LIST_CRUMB, { label: described ? `${described}, ${pageSize} a page` : `${pageSize} a page`, href: dir(1) }];
  return {
    title: `Matrix List${described ? ` (${described})` : ''}`,
    dir: dir(page.number),
    request: `${LIST}/${queryString([['format', 'api'], ['page', String(page.number)], ...rest])}`,
    formats: formatLinks(dir(page.number), listViewFormats(pageSize, filters)),
    pages: pagesNav(page, dir),
    view: { filters: filters as Record<string, string>, pageSize, pageSizes: VIEW_FORMAT_SIZES.api, ...(choices ? { choices } : {}) },
    breadcrumbs: crumbs,
    ...navRoot(base),
  };
}

/** The pages of one list view (filters + page size); `matrices`: the view's, in list order (views.ts viewMatrices). */
export function planListPages(matrices: Matrix[], pageSize: number, filters: Filters, base: string, layout: Layout, choices?: NonNullable<Nav['view']>['choices'], links: LinkStyle = 'query'): PlannedResource[] {
  const isDefault = pageSize === DEFAULT_PAGE_SIZE && Object.keys(filters).length === 0;
  const view: PagedView = { matrices, pageSize, filters, base, layout, choices, links, formats: isDefault ? undefined : listViewFormats(pageSize, filters) };
  // paginate()'s numbers (its rule: positive page sizes, page 1 of an empty list), without its pages' items: sliced when a page is rendered or keyed.
  if (!Number.isInteger(pageSize) || pageSize < 1) paginate(matrices, pageSize);
  const last = Math.max(1, Math.ceil(matrices.length / pageSize));
  const dirOf = listDirOf(pageSize, filters);
  const pages: PlannedResource[] = [];
  for (let n = 1; n <= last; n++) pages.push(new ListPage(view, n, last, dirOf(n)));
  return pages;
}

/**
 * A view's page folders by number: the folder of a page past the first made once a view, the number put in its
 * place (listDir for each page and each of its navigation links: 0.09 s of a remove's plan, 0.1 s of its worker,
 * at load). Checked against listDir for two pages once made; page 1, and a view whose folder the check refuses,
 * get listDir itself. By what the folders are made of (at most DIRS_KEPT views).
 */
function listDirOf(pageSize: number, filters: Filters): (n: number) => string {
  const terms = `${pageSize} ${JSON.stringify(filters)}`;
  let dirOf = dirsByTerms.get(terms);
  if (dirOf === undefined) {
    const first = listDir(1, pageSize, filters);
    const past = byPageTemplate((n) => listDir(n, pageSize, filters));
    dirOf = (n) => (n === 1 ? first : past(n));
    if (dirsByTerms.size >= DIRS_KEPT) dirsByTerms.clear();
    dirsByTerms.set(terms, dirOf);
  }
  return dirOf;
}
const dirsByTerms = new Map<string, (n: number) => string>();
const DIRS_KEPT = 1_000;

/** What the pages of one list view share (planListPages). */
interface PagedView {
  matrices: Matrix[];
  pageSize: number;
  filters: Filters;
  base: string;
  layout: Layout;
  choices?: NonNullable<Nav['view']>['choices'];
  links: LinkStyle;
  formats?: readonly FormatId[];
}

/**
 * One planned list page: its view and its numbers. The plan holds every
 * page of every view at every page size until it is rendered (23,000 for
 * the 3x synthetic release), so a page holds no items (they are sliced from
 * the view's when the page is rendered or keyed: each record is on about
 * fifty pages) and no closures of its own (its getters are the class's):
 * 1.4 KB a page as object literals with getters, about 100 bytes so.
 */
class ListPage implements PlannedResource {
  constructor(private readonly view: PagedView, private readonly number: number, private readonly last: number, readonly dir: string) {}

  get formats(): readonly FormatId[] | undefined {
    return this.view.formats;
  }

  get first(): Matrix | undefined {
    return this.view.matrices[(this.number - 1) * this.view.pageSize];
  }

  /** The records it shows. */
  protected get items(): Matrix[] {
    return pageItems(this.view.matrices, this.view.pageSize, this.number);
  }

  /** The records of its view. */
  protected get count(): number {
    return this.view.matrices.length;
  }

  get wire(): PlannedWire {
    return { kind: 'list', head: headOf(this.view, 'matrices'), dir: this.dir, number: this.number, last: this.last, count: this.count, items: this.items };
  }

  private get page(): Page<Matrix> {
    const { number, last } = this;
    return { number, last, previous: number > 1 ? number - 1 : null, next: number < last ? number + 1 : null, items: this.items };
  }

  // Built each time it is asked for (once per build, when the page is
  // rendered), not held: the pages of every view at every page size repeat
  // each matrix's list item dozens of times (160 MB for the 2024 release).
  get resource(): Resource {
    const { pageSize, filters, base, layout, choices, links } = this.view;
    const page = this.page;
    return {
      kind: 'list',
      // next/previous depend on the requested format: withFormat() fills them in.
      body: { count: this.count, next: null, previous: null, results: page.items.map((m) => shownItem(m, base, layout, links)) },
      matrices: page.items,
      nav: listPageNav(filters, pageSize, page, base, choices),
    };
  }

  get neighbours(): NonNullable<PlannedResource['neighbours']> {
    const { number, last } = this;
    return { previous: number > 1 ? number - 1 : null, next: number < last ? number + 1 : null, query: viewQuery(this.view) };
  }

  // A page is what its items are, where it lies in its view, and the view's size: adding a
  // matrix changes the pages it moves items across and every page's count, no other.
  get key(): string {
    const { pageSize, matrices } = this.view;
    // The view's terms and its records' digests, made once a view (its pages' keys were 0.2 s of a remove's plan);
    // a page rebuilt from its wire, whose view holds no records, from its own.
    const from = (this.number - 1) * pageSize;
    const digests = matrices.length === this.count ? viewDigests(matrices).slice(from, from + pageSize).join(',') : digestsOf(this.items);
    return `${keyHead(this.view)} ${this.number}/${this.last} ${this.count} ${digests}`;
  }

  // The key's terms but the digests; the records shown by the ids of the view's (once a view: not sliced a page).
  get shape(): string {
    return `list ${viewShape(this.view)} ${this.number}/${this.last}`;
  }

  holds(changed: ReadonlySet<Matrix>): boolean {
    if (changed.size === 0) return false;
    const { pageSize, matrices } = this.view;
    const from = (this.number - 1) * pageSize;
    return changedIn(matrices, changed).some((i) => i >= from && i < from + pageSize);
  }
}

/** A view at a page size as its pages' keys have it but the digests (its records by id), hashed once a view and
 *  page size; the ids once a view (its pages at every page size share the array). */
const viewShapes = new WeakMap<PagedView, string>();
const viewIds = new WeakMap<readonly Matrix[], string>();
function viewShape(view: PagedView): string {
  let shape = viewShapes.get(view);
  if (shape === undefined) {
    let ids = viewIds.get(view.matrices);
    if (ids === undefined) viewIds.set(view.matrices, (ids = `${view.matrices.length} ${hash128(view.matrices.map((m) => m.matrixId).join(','))}`));
    viewShapes.set(view, (shape = `${view.pageSize} ${ids} ${hash128(`${JSON.stringify(view.filters)} ${JSON.stringify(view.choices ?? null)}`)}`));
  }
  return shape;
}

/** Where a view shows records of a set, found once a view and set. */
const changedAt = new WeakMap<readonly Matrix[], { of: ReadonlySet<Matrix>; at: number[] }>();
function changedIn(matrices: readonly Matrix[], changed: ReadonlySet<Matrix>): number[] {
  let found = changedAt.get(matrices);
  if (found === undefined || found.of !== changed) {
    const at: number[] = [];
    for (let i = 0; i < matrices.length; i++) if (changed.has(matrices[i])) at.push(i);
    changedAt.set(matrices, (found = { of: changed, at }));
  }
  return found.at;
}

/** What the keys of a view's pages begin with. */
const keyHeads = new WeakMap<PagedView, string>();
function keyHead(view: PagedView): string {
  let head = keyHeads.get(view);
  if (head === undefined) keyHeads.set(view, (head = `list ${view.pageSize} ${JSON.stringify(view.filters)} ${JSON.stringify(view.choices ?? null)}`));
  return head;
}

/** The digests of a view's records, in its order (once a view: its pages at every page size share the array). */
const digestsAt = new WeakMap<readonly Matrix[], string[]>();
function viewDigests(matrices: readonly Matrix[]): string[] {
  let digests = digestsAt.get(matrices);
  if (digests === undefined) digestsAt.set(matrices, (digests = matrices.map(matrixDigest)));
  return digests;
}

/**
 * A view's next and previous URLs in a format, by page number: the URL for a page past the first made once a
 * view and format, the number put in its place (listQueryUrl for every link: 0.15 s of a render worker's 3.6 s
 * in a remove, at load). Checked against listQueryUrl for two pages once made; page 1, and a view whose URL
 * the check refuses, get listQueryUrl itself. By the view's object, and by what the URLs are made of: a
 * worker gets each task's view head as a copy of its own (at most QUERIES_KEPT views kept so).
 */
const viewQueries = new WeakMap<PagedView, (format: FormatId, n: number) => string>();
const queriesByTerms = new Map<string, (format: FormatId, n: number) => string>();
const QUERIES_KEPT = 1_000;
function viewQuery(view: PagedView): (format: FormatId, n: number) => string {
  let query = viewQueries.get(view);
  if (query !== undefined) return query;
  const { base, pageSize, filters, links } = view;
  const terms = `${pageSize} ${links} ${JSON.stringify(filters)} ${base}`;
  query = queriesByTerms.get(terms);
  if (query === undefined) {
    const byFormat = new Map<FormatId, (n: number) => string>();
    query = (format, n) => {
      let of = byFormat.get(format);
      if (of === undefined) byFormat.set(format, (of = byPageTemplate((k) => listQueryUrl(base, format, k, pageSize, filters, links))));
      return of(n);
    };
    if (queriesByTerms.size >= QUERIES_KEPT) queriesByTerms.clear();
    queriesByTerms.set(terms, query);
  }
  viewQueries.set(view, query);
  return query;
}
/**
 * make(n), a page's folder or URL, from one template for the pages past the first: make(PAGE_MARK) with the
 * number put in PAGE_MARK's place, when that gives make(2) and make(37); else (and for page 1) make itself.
 */
function byPageTemplate(make: (n: number) => string): (n: number) => string {
  const parts = make(PAGE_MARK).split(String(PAGE_MARK));
  if (parts.length !== 2 || `${parts[0]}2${parts[1]}` !== make(2) || `${parts[0]}37${parts[1]}` !== make(37)) return make;
  const [before, after] = parts;
  return (n) => (n < 2 || !Number.isInteger(n) ? make(n) : `${before}${n}${after}`);
}
/** A page number no URL holds otherwise (checked: it splits the URL in two). */
const PAGE_MARK = 918_273_645;

/** A list page rebuilt from its wire (plannedFromWire): its records and its view's size as sent, its view holding none. */
class WiredListPage extends ListPage {
  constructor(view: PagedView, number: number, last: number, dir: string, private readonly shown: Matrix[], private readonly total: number) {
    super(view, number, last, dir);
  }

  protected override get items(): Matrix[] {
    return this.shown;
  }

  protected override get count(): number {
    return this.total;
  }
}

/** The items of page `n` (from 1) of a view, as paginate() gives them. */
const pageItems = <T>(items: readonly T[], pageSize: number, n: number): T[] => items.slice((n - 1) * pageSize, n * pageSize);
