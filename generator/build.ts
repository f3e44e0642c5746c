// The pipeline, top to bottom: read the release description and the
// dataset → validate (all problems at once) → plan every resource → render
// each in every format, plus logos, sites, errors and host rules (the render
// workers, generator/pipeline/: only what changed since the previous build)
// → write what changed (write/writer.ts) → the mirror archive of what was
// written. A build whose inputs (release, generator, options) and output
// folder are as the previous build left them stops early.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import yaml from 'js-yaml';
import { readReleaseInfo, readReleaseText } from './dataset/release-yaml.ts';
import { readRelease, releaseFileFor } from './dataset/read.ts';
import type { Matrix, Release, ReleaseInfo } from './dataset/types.ts';
import { DatasetError } from './dataset/diagnostics.ts';
import { hasSites, matrixDigest } from './dataset/digest.ts';
import { grouped } from './dataset/numbers.ts';
import type { Resource } from './formats/types.ts';
import { FORMATS, FORMAT_IDS } from './formats/registry.ts';
import { headerRules, printHeaders } from './hosting/headers.ts';
import { printRedirects, redirectRules } from './hosting/rules.ts';
import { serverConfigs } from './hosting/servers.ts';
import { homePage } from './pages/home.ts';
import { notFoundPage } from './pages/not-found.ts';
import { searchIndex, searchPage } from './pages/search.ts';
import { apiExtras, routingInput } from './docs/api-extras.ts';
import { heldRelease, planEndpoints, type HeldRelease } from './plan/endpoints.ts';
import { byBaseId, defaultPageCount, planBaseId, planListPages, planResources, withFormat } from './plan/resources.ts';
import {
  DEFAULT_PAGE_SIZE, EMPTY_LIST_DIR, FAVICON, HOME, LIST, NOT_FOUND_PAGE, NOT_FOUND_PEOPLE, RELEASES_DIR, unmirroredPath, detailDir, versionsDir, SEARCH_INDEX, SEARCH_JS, SEARCH_PAGE, SITE_CSS, SITE_JS, basePathOf, errorPaths, outputFile, outputPath, sitesPath, normaliseBaseUrl,
  listUrl, ROUTES, type LinkStyle,
} from './routes/urls.ts';
import { withRoutes } from './routes/client.ts';
import { OutputPlan, SiteWriter, type WriteReport } from './write/writer.ts';
import { treeLookOffThread, unchangedSiteShared, type TreeChanges } from './write/changes.ts';
import { KEPT_APPEND_MAX, keptAppend, readInputHashes, readKept, readState, saveInputHashes, saveKept, spoolDir, type BuildState } from './write/state.ts';
import { KeptTexts, TextSpool, readKeptTexts, saveKeptTexts } from './write/kept-texts.ts';
import type { RecordCache } from './mirror/bulk.ts';
import { ParsedFiles } from './dataset/parsed-files.ts';
import { FragmentSpool } from './write/fragments.ts';
import { fileKey, renderAhead, renderPlan, startRenderPool, type Ahead, type ScheduleOptions } from './pipeline/schedule.ts';
import type { RenderPool } from './pipeline/pool.ts';
import { KeyedContent, type PlanTarget } from './pipeline/output-plan.ts';
import { HereFragments } from './pipeline/here-fragments.ts';
import type { Unmirrored } from './edge/indexes.ts';
import { guardOutDir } from './write/guard.ts';
import { dataHash, hashOf, sourcesHash } from './pipeline/fingerprint.ts';
import { formatContext } from './pipeline/render.ts';
import { mark, printTimeline } from './pipeline/timeline.ts';
import { PlanShapes, type KeptPlanData } from './pipeline/kept-plan.ts';
import { chooseLayout, type Layout } from './routes/shard.ts';
import { removeMirror, writeMirror, type MirrorReport } from './write/mirror.ts';
import { WHOLE_SITE, scopeFiles, type MirrorScope } from './mirror/archive.ts';
import { downloadFiles } from './mirror/downloads.ts';
import { startThreadsAhead } from './mirror/gzip.ts';
import { edgeIndexFiles, unmirroredCollections } from './edge/build-indexes.ts';
import { SERVER_FILE, serverBundle } from './server/bundle.ts';
import { CONTENT_TYPES_FILE, README, S3_UPLOAD, contentTypesTable, mirrorReadme, s3UploadScript } from './mirror/readme.ts';
import { NOJEKYLL } from './mirror/layout.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The JASPAR 2024 release shipped with the project (the default release of a build of the shipped releases). */
export const DEFAULT_DATA = path.join(PROJECT_ROOT, 'data/jaspar-2024');
export const DEFAULT_RELEASE_FILE = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
export const DEFAULT_BASE_URL = 'http://localhost:8080';
const ASSETS = path.join(PROJECT_ROOT, 'generator/assets');

export interface BuildOptions {
  /** The release folder, or several: one site answers release=<year> for each (the default release at its root). */
  dataDir: string | string[];
  outDir: string;
  baseUrl: string;
  /** Default: data/release-<year>.yaml for JASPAR's download files of that year, else DEFAULT_RELEASE_FILE.
   *  Several folders: one description each, in their order (the CLI's --release names one, for one folder). */
  releaseFile?: string | string[];
  /** Render worker threads (0: render on this thread); default one per core for a large release. */
  workers?: number;
  /** Progress on stderr when it is a terminal. */
  progress?: boolean;
  /** The folder layout (routes/shard.ts); default: chosen from the release's size. Tests force a sharded layout on a small release. */
  layout?: Layout;
  /** full (default): every file; compact: what the edge handler cannot render from its indexes (issue 14, Cloudflare's file limit; edge/render-missing.ts). */
  profile?: Profile;
  /** How bodies link (routes/urls.ts LinkStyle): query (default) as the service, or path: the files, for hosts that ignore query strings. */
  links?: LinkStyle;
}

export const PROFILES = ['full', 'compact'] as const;
/** Path links in a build's keys; nothing for the default, so that a default build's keys stay as they were. */
const linksKey = (options: BuildOptions): string[] => (options.links === 'path' ? ['links=path'] : []);
export type Profile = (typeof PROFILES)[number];

export interface BuildReport {
  matrices: number;
  listPages: number;
  files: number;
  bytes: number;
  rules: number;
  seconds: number;
  /** CPU seconds of the process (render workers included) in each step, for the bench: planning, the site written, the mirror archives and manifests (absent when up to date). */
  cpu?: { plan: number; site: number; mirror: number };
  /** Files written because their bytes changed, and files and folders removed. */
  written: number;
  removed: number;
  /** True when inputs and output folder were as the previous build left them: nothing was done. */
  upToDate: boolean;
  /** Rendering tasks rendered, and reused because what they render from had not changed (kept: not even planned, the
   *  previous build's plan telling they would be reused: pipeline/kept-plan.ts); the mirror archives' gzip members made, and copied from the previous archives (and how many archives were patched, their other files not looked at: mirror/archive.ts ArchivePatch). */
  tasks: { rendered: number; reused: number; kept?: number };
  archiveMembers: { made: number; reused: number; patched?: number };
  /** What the reader says about the input (JASPAR download files used in part or ignored); none for a curated release. */
  notes: string[];
  /** Each release of the site: its year, its matrices, and whether URLs without release= answer it. */
  releases: { year: number; matrices: number; default: boolean }[];
}

const NOT_FOUND = '{"detail":"Not found."}';
const INVALID_PAGE = '{"detail":"Invalid page."}';

type PlanReport = Omit<BuildReport, 'seconds' | 'written' | 'removed' | 'upToDate' | 'tasks' | 'archiveMembers'>;

/** One release as the build reads it: its folder, its description and what the reader made of them. */
export interface ReleaseInput {
  dataDir: string;
  releaseFile: string;
  release: Release;
  notes: string[];
}

/** The data folders of a build: those named, else every data/jaspar-<year> folder shipped with the project. */
export function dataDirsOf(options: Pick<BuildOptions, 'dataDir'>): string[] {
  return Array.isArray(options.dataDir) ? options.dataDir : [options.dataDir];
}

/** Every data/jaspar-<year> folder of the project that has its data/release-<year>.yaml, oldest first. */
export function shippedReleases(dataRoot = path.join(PROJECT_ROOT, 'data')): string[] {
  return readdirSync(dataRoot)
    .map((name) => /^jaspar-([0-9]{4})$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null && existsSync(path.join(dataRoot, `release-${m[1]}.yaml`)))
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => path.join(dataRoot, m[0]));
}

/** The release description given for the i-th data folder, if any. */
function givenReleaseFile(options: Pick<BuildOptions, 'dataDir' | 'releaseFile'>, i: number): string | undefined {
  const dirs = dataDirsOf(options);
  if (Array.isArray(options.releaseFile)) {
    if (options.releaseFile.length !== dirs.length) throw new Error(`${options.releaseFile.length} release descriptions for ${dirs.length} release folders: give one per folder, in their order`);
    return options.releaseFile[i];
  }
  if (dirs.length > 1 && options.releaseFile !== undefined) throw new Error('--release names the description of one release: give it with one --data folder only');
  return options.releaseFile;
}

/** Reads every release of the build; two of one year is a problem. parsed: what earlier builds made of unchanged files. */
export function readReleases(options: Pick<BuildOptions, 'dataDir' | 'releaseFile'>, parsed?: ParsedFiles): ReleaseInput[] {
  const dirs = dataDirsOf(options);
  if (dirs.length === 0) throw new Error('no release folder given (dataDir is empty): a site needs at least one JASPAR release');
  givenReleaseFile(options, 0);
  // A folder read as a release and as another's older versions is read once.
  const cache = new Map<string, Matrix[]>();
  const inputs = dirs.map((dataDir, i) => {
    const releaseFile = releaseFileFor(dataDir, givenReleaseFile(options, i), DEFAULT_RELEASE_FILE);
    const info = readReleaseInfo(readReleaseText(releaseFile), (t) => yaml.load(t), releaseFile);
    const { release, notes } = readRelease(dataDir, info, cache, parsed);
    mark(`plan: ${info.year} read`);
    return { dataDir, releaseFile, release, notes };
  });
  const years = new Map<number, string>();
  for (const r of inputs) {
    const earlier = years.get(r.release.info.year);
    if (earlier !== undefined) {
      throw new DatasetError([{ file: path.relative(process.cwd(), r.dataDir) || r.dataDir, line: 1, message: `a second JASPAR ${r.release.info.year} release (the first is ${path.relative(process.cwd(), earlier) || earlier})`, fix: 'give each release once' }]);
    }
    years.set(r.release.info.year, r.dataDir);
  }
  return inputs.sort((a, b) => a.release.info.year - b.release.info.year);
}

/**
 * The release a URL without release= answers: the newest whose collections
 * are all mirrored (a release that lacks one, such as JASPAR 2026 without its
 * UNVALIDATED collection, would answer an unfiltered list with fewer
 * matrices than the service); the newest of all when none is complete.
 */
export function defaultRelease<T extends { release: Release }>(releases: readonly T[]): T {
  const complete = releases.filter((r) => releaseComplete(r.release.info));
  return (complete.length > 0 ? complete : releases).reduce((a, b) => (b.release.info.year > a.release.info.year ? b : a));
}

/** Whether every collection of the release is mirrored (the release description says so; one that says nothing is whole). */
export function releaseComplete(info: ReleaseInfo): boolean {
  return info.collections.every((c) => c.mirrored);
}

/**
 * Each release as the pages show it in a site of several: a switch to the
 * other releases' home pages, and what it adds and lacks beside them (JASPAR
 * 2026: the profiles new since 2024 by taxonomic group, its collections not
 * mirrored). A site of one release is left as it is.
 */
function withSiteNotes(inputs: ReleaseInput[], main: ReleaseInput, root: string): ReleaseInput[] {
  if (inputs.length < 2) return inputs;
  const home = (r: ReleaseInput) => `${root}/${r === main ? '' : releasePrefix(r.release.info.year)}`;
  const count = (n: number, what: string) => `${grouped(n)} ${what}${n === 1 ? '' : 's'}`;
  return inputs.map((r) => {
    const info = r.release.info;
    const older = inputs.filter((o) => o.release.info.year < info.year);
    const known = new Set(older.flatMap((o) => o.release.matrices.map((m) => m.matrixId)));
    const fresh = r.release.matrices.filter((m) => !known.has(m.matrixId));
    const byGroup = new Map<string, number>();
    for (const m of fresh) byGroup.set(m.taxGroup || 'no taxonomic group', (byGroup.get(m.taxGroup || 'no taxonomic group') ?? 0) + 1);
    const groups = [...byGroup].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([g, n]) => `${g} ${n}`).join(', ');
    const lacking = info.collections.filter((c) => !c.mirrored).map((c) => c.name);
    const notes: string[] = [];
    if (older.length > 0 && fresh.length > 0) notes.push(`${info.name} adds ${count(fresh.length, 'profile')} not in ${older.map((o) => o.release.info.name).join(' or ')}: ${groups}.`);
    if (lacking.length > 0) notes.push(`Not mirrored here: ${info.name}'s ${lacking.join(' and ')} collection${lacking.length > 1 ? 's' : ''} (JASPAR has not published their files); URLs without release= answer ${main.release.info.name}, whose collections are all here.`);
    if (r === main) {
      for (const o of inputs.filter((x) => x !== main)) notes.push(`${o.release.info.name} is here too (release=${o.release.info.year}): ${grouped(o.release.matrices.length)} matrices${o.release.info.year > info.year ? ', with its new profiles and its curated annotations' : ''}.`);
    }
    const siteReleases = inputs.map((x) => ({ name: x.release.info.name, year: x.release.info.year, home: home(x), current: x === r }));
    return { ...r, release: { ...r.release, info: { ...info, siteReleases, siteNotes: notes } } };
  });
}

/** The path a release that is not the default one lies under ("/releases/2026": its whole site, routes/paths.ts). */
const releasePath = (year: number) => ROUTES.releaseSite.build({ year });
/** Its output folder (relative). */
export const releasePrefix = (year: number) => `${releasePath(year).slice(1)}/`;

/**
 * Plans the whole site: contents of the small files, rendering tasks for the rest (plan.files renders
 * them when read); nothing is written. previous: the state of the build being updated and the salt of
 * this one's keys, so that a keyed file that build wrote with the same key is not rendered to plan it
 * (the build counts the bytes as written: the report's bytes are 0).
 */
export function planSite(options: BuildOptions, previous?: { state: BuildState | null; salt: string; parsed?: ParsedFiles; records?: RecordCache; kept?: { data: KeptPlanData | null; fingerprint: string }; addedOrRemoved?: () => void }): PlannedSite {
  const state = previous?.state;
  const known = state ? (file: string, key: string) => (state.keys.get(file) === fileKey(previous!.salt, key) ? state.files.get(file)?.size : undefined) : undefined;
  const base = normaliseBaseUrl(options.baseUrl);
  const read = readReleases(options, previous?.parsed);
  mark('plan: releases read');
  const inputs = withSiteNotes(read, defaultRelease(read), basePathOf(base));
  const main = inputs[read.indexOf(defaultRelease(read))];
  // Shard folders only for a release too large for one folder (routes/shard.ts).
  // Chosen once here and passed to everything that names a path.
  const layoutOf = (release: Release) => options.layout ?? chooseLayout({ matrixIds: release.matrices.map((m) => m.matrixId), baseIds: [...new Set(release.matrices.map((m) => m.baseId))] });
  const layout = layoutOf(main.release);
  const plan = new OutputPlan(main.release.info, layout);
  // A rebuild leaves out the tasks whose files the previous build left as they would be now (pipeline/kept-plan.ts).
  const shapes = previous?.kept ? new PlanShapes(previous.kept.data, inputs.map((r) => r.release), options.profile ?? 'full') : null;
  plan.filter = shapes;
  mark('plan: shapes compared');
  if (shapes?.addedOrRemoved) previous!.addedOrRemoved?.();
  const others = inputs.filter((r) => r !== main);
  // Every release of the site: where its site lies, and what /api/v1/releases/ says of it (another's list linked by its path: every host answers it).
  const held = inputs.map((r) => {
    const prefix = r === main ? '' : releasePath(r.release.info.year);
    return { info: r.release.info, prefix, held: { ...heldRelease(r.release), matrixUrl: listUrl(`${base}${prefix}`, options.links) } };
  });
  const heldReleases = held.map((h) => h.held);
  // What each release lacks that JASPAR publishes for it, and which other release has it.
  const lacks = new Map(inputs.map((r) => [r, unmirroredCollections(r.release, inputs.filter((x) => x !== r).map((x) => ({ release: x.release, query: `release=${x.release.info.year}` })))]));
  const unmirrored = (r: ReleaseInput) => lacks.get(r)!;
  const records = previous?.records;
  mark('plan: site set up');
  const report = planRelease(plan.root, main.release, { ...options, base, layout, held, heldReleases, main: true, known, records });
  mark('plan: default release planned');
  // The other releases: each a whole site of its own under /releases/<year>/,
  // whose bodies link within it (base URL …/releases/<year>); the hosts route
  // release=<year> there (hosting/, edge/handler.ts).
  for (const other of others) {
    const otherLayout = layoutOf(other.release);
    planRelease(plan.part(releasePrefix(other.release.info.year), other.release.info, otherLayout), other.release, {
      ...options, base: `${base}${releasePath(other.release.info.year)}`, layout: otherLayout, held, heldReleases, main: false, unmirrored: unmirrored(other), known, records,
    });
  }
  mark('plan: other releases planned');
  // A matrix that only another release has (new in 2026) answers at its own URL without release= too.
  const elsewhere = planElsewhere(plan, main.release, others.map((r) => r.release), base, layout, options.links);
  const listPages = defaultPageCount(main.release);
  const otherHeld = held.filter((h) => h.prefix !== '').map((h) => ({ year: h.info.year, prefix: h.prefix }));
  const rules = redirectRules(routingInput(main.release, listPages, layout, base, otherHeld));
  plan.root.add('_redirects', printRedirects(rules));
  const root = basePathOf(base);
  plan.root.add('_headers', printHeaders(headerRules(root)));
  // nginx, Caddy and Apache answer the same query URLs from the files, with their own config (hosting/servers.ts).
  const releaseRoutes = others.map((o) => {
    const at = releasePath(o.release.info.year);
    return {
      year: o.release.info.year,
      path: at,
      lastPage: defaultPageCount(o.release),
      unmirrored: unmirrored(o).map((u) => ({ collection: u.collection, idPrefixes: u.idPrefixes, file: `${at}${unmirroredPath(u.collection)}` })),
    };
  });
  for (const [file, content] of serverConfigs({ prefix: root, layout, pageCount: listPages, year: main.release.info.year, releases: releaseRoutes })) plan.root.add(file, content);
  // The edge handler's indexes (issue 14, generator/edge/): what it filters, orders and renders from; the
  // default release's also say where the others lie and which ids only they have.
  for (const [file, content] of edgeIndexFiles(main.release, base, layout, { compact: options.profile === 'compact', releases: held, elsewhere, unmirrored: unmirrored(main), links: options.links })) plan.root.add(file, content);
  // The Node server (issue 19, generator/server/): `node serve.mjs` answers the whole API, every release, from this folder.
  // Keyed by nothing of its own: the key's salt is the generator's sources (schedule.ts fileKey), all it is made
  // from; a rebuild does not run esbuild again (0.2-0.4 s of wall).
  plan.root.add(SERVER_FILE, new KeyedContent(SERVER_FILE, serverBundle));
  // The download as a product (issue 19): what it is and how to serve it, GitHub Pages without Jekyll, object stores' types.
  plan.root.add(README, mirrorReadme({
    name: main.release.info.name, year: main.release.info.year, base, citation: main.release.info.citation, license: main.release.info.license,
    others: others.map((o) => ({ name: o.release.info.name, year: o.release.info.year, path: releasePath(o.release.info.year), citation: o.release.info.citation, lacking: o.release.info.collections.filter((c) => !c.mirrored).map((c) => c.name) })),
  }));
  plan.root.add(NOJEKYLL, '');
  plan.root.add(CONTENT_TYPES_FILE, contentTypesTable());
  plan.root.add(S3_UPLOAD, s3UploadScript());
  mark('plan: site files planned');
  // Without every task the previous build had, planned the same way, the tasks left out are planned after all.
  const contents = shapes ? plan.files.withContent() : [];
  const carry = shapes !== null && shapes.carries(plan.parts, contents, plan.leftOutCount, options.outDir, state && { firsts: () => state.keys.keys(), has: (file) => state.files.has(file) });
  if (!carry) plan.planLeftOut();
  plan.filter = null;
  const keepPlan = shapes?.toKeep(previous!.kept!.fingerprint, previous!.salt, plan.parts, contents, inputs.map((r) => r.release), options.profile ?? 'full');
  mark(`plan: ${carry ? `${plan.tasks.length} tasks planned, the previous build's files kept for the rest${shapes!.sameRecords ? ' (every record of the previous build\'s shape)' : ''}` : 'every task planned'}`);
  plan.checkFolderSizes();
  plan.checkCaseClashes((value) => usedBy(inputs.flatMap((r) => r.release.matrices), value));
  mark('plan: folders checked');
  return {
    plan, carry, keepPlan, gone: carry ? shapes!.gone : [],
    report: { ...report, matrices: inputs.reduce((n, r) => n + r.release.matrices.length, 0), files: plan.files.size, bytes: previous ? 0 : plan.bytes, rules: rules.length, notes: inputs.flatMap((r) => r.notes), releases: inputs.map((r) => ({ year: r.release.info.year, matrices: r.release.matrices.length, default: r === main })) },
  };
}

/** What planSite gives: the plan; with a kept plan, whether it leaves tasks out (their files the previous build's:
 *  the writer keeps them, SiteWriter.open's carry), and what to keep for the next build. */
export interface PlannedSite {
  plan: OutputPlan;
  report: PlanReport;
  carry?: boolean;
  keepPlan?: KeptPlanData;
  /** With carry: the previous build's files the plan no longer has (records removed). */
  gone?: string[];
}

interface ReleasePlanOptions extends BuildOptions {
  base: string;
  layout: Layout;
  /** Every release of the site, with the path its API lives under ("" for the default one). */
  held: { info: ReleaseInfo; prefix: string; held: HeldRelease }[];
  /** The default release (at the root of the site), or another (under /releases/<year>/). */
  main: boolean;
  /** Every release of the site with the URL of its matrix list, for /api/v1/releases/. */
  heldReleases: HeldRelease[];
  /** Another release's collections the mirror does not hold (edge/build-indexes.ts unmirroredCollections). */
  unmirrored?: Unmirrored[];
  /** The size of a file (path in the output) the previous build wrote with this key (planSite). */
  known?: (file: string, key: string) => number | undefined;
  /** Bulk files' records rendered by earlier builds (mirror/bulk.ts). */
  records?: RecordCache;
}

/** One release's files, at the target's folder: every resource in its formats, logos, sites, pages, downloads, error bodies. */
function planRelease(target: PlanTarget, release: Release, options: ReleasePlanOptions): Pick<PlanReport, 'listPages'> {
  const { base, layout } = options;
  const planned = [...planResources(release, base, layout, options.links), ...planEndpoints(release, base, layout, options.heldReleases, options.links)];
  const at = `plan ${target.prefix || 'root'}:`;
  mark(`${at} resources planned (views, pages)`);
  const context = formatContext(release.info, layout);
  // A compact build leaves out every resource, the first-page copies and the
  // logos: the edge handler renders them from its indexes (edge/render-missing.ts).
  const compact = options.profile === 'compact';
  const listPages = defaultPageCount(release);
  // Rendered later, by the render workers, in each of the resource's formats (resources.ts formatsOf).
  if (!compact) {
    for (const p of planned) target.addResource(p);
    // Static hosts answer /api/v1/matrix/ with this folder's index.html: page 1 for people.
    const firstPage = planned.find((p) => p.neighbours?.previous === null && p.resource.kind === 'list')!;
    target.add(outputFile(`${LIST}/`), FORMATS.api.render(withFormat(firstPage, 'api'), context));
  }
  for (const m of release.matrices) {
    if (!compact) target.addLogo(m);
    if (hasSites(m)) target.add(outputFile(sitesPath(m.matrixId)), sitesFile(m));
  }
  mark(`${at} tasks and logos claimed`);
  target.add(outputFile(errorPaths.notFound), NOT_FOUND);
  target.add(outputFile(errorPaths.invalidPage), INVALID_PAGE);
  // Netlify and http-server answer every missing file with /404.html: for an
  // unknown matrix that is the real service's answer.
  target.add(outputFile(NOT_FOUND_PAGE), NOT_FOUND);
  // Browsers get this one instead where the host reads Accept (hosting/routing.ts errors.people).
  target.add(outputFile(NOT_FOUND_PEOPLE), notFoundPage(release, base));
  // A filter value the release does not hold: the service answers an empty list (nginx, Caddy, Apache serve these).
  const [empty] = planListPages([], DEFAULT_PAGE_SIZE, {}, base, layout, undefined, options.links);
  const emptyResource: Resource = { ...empty.resource, nav: { ...empty.resource.nav!, title: 'Matrix List (no matrix matches these filters)', formats: [], pages: undefined } };
  for (const format of FORMAT_IDS) target.add(outputPath(EMPTY_LIST_DIR, format), FORMATS[format].render(withFormat(empty, format, emptyResource), context));
  // The other endpoints' extras: error bodies, OpenAPI description, documentation page.
  const otherHeld = options.main ? options.held.filter((h) => h.prefix !== '').map((h) => ({ year: h.info.year, prefix: h.prefix })) : [];
  // Copies of first pages keyed when a previous build may have written them; by the release description as
  // the formats print it (the notes on the other releases are the home page's) and the layout.
  const { siteNotes: _notes, ...printed } = release.info;
  const keyed = options.known && `${JSON.stringify(layout)}\n${JSON.stringify(printed)}`;
  for (const [file, content, key] of apiExtras(release, base, planned, context, { copies: !compact, held: otherHeld, keyed })) target.add(file, key === undefined ? content : new KeyedContent(key, content));
  mark(`${at} extras`);
  const root = basePathOf(base);
  plan_assets(target, layout, root);
  target.add(outputFile(SEARCH_INDEX), searchIndex(release));
  target.add(outputFile(SEARCH_PAGE), searchPage(release, base));
  target.add(outputFile(HOME), homePage(release, base, layout, listPages, { archive: !compact }));
  // Offline mirror (issue 7): the list in one file per format, JASPAR's bundles, the downloads page.
  const known = options.known && ((file: string, key: string) => options.known!(`${target.prefix}${file}`, key));
  mark(`${at} search index, home`);
  for (const [file, content, key] of downloadFiles(release, base, layout, context, { archive: !compact, known, records: options.records })) target.add(file, key === undefined ? content : new KeyedContent(key, content));
  mark(`${at} downloads`);
  // What a collection the release lacks answers with on the hosts that route queries (hosting/routing.ts).
  for (const u of options.unmirrored ?? []) target.add(outputFile(unmirroredPath(u.collection)), `${JSON.stringify({ detail: u.detail })}\n`);
  // Another release's own indexes, for the edge handler's answers under its path.
  if (!options.main) for (const [file, content] of edgeIndexFiles(release, base, layout, { compact, releases: options.held, unmirrored: options.unmirrored, links: options.links })) target.add(file, content);
  return { listPages };
}

/** A matrix's BED file, keyed by its record's digest (which hashes its sites): a rebuild whose previous build wrote
 *  it so neither reads nor compares it (the shipped 2024 release's 281 are 10 MB, read again by every rebuild).
 *  Its text asked for when written, not held by the plan (dataset/sites.ts). */
const sitesFile = (m: Matrix) => new KeyedContent(`sites ${matrixDigest(m)}`, () => m.sites!);

/** The pages' stylesheet and scripts, the scripts with the route map in front (routes/client.ts). */
function plan_assets(target: PlanTarget, layout: Layout, root: string): void {
  target.add(outputFile(SITE_CSS), readFileSync(path.join(ASSETS, 'site.css')));
  target.add(outputFile(FAVICON), readFileSync(path.join(ASSETS, 'favicon.svg')));
  target.add(outputFile(SITE_JS), withRoutes(readFileSync(path.join(ASSETS, 'site.js')), layout, root));
  target.add(outputFile(SEARCH_JS), withRoutes(readFileSync(path.join(ASSETS, 'search.js')), layout, root));
}

/**
 * Matrices that only other releases have (MA2593.1, new in JASPAR 2026), at
 * their own URLs without release=: each its detail, logo and binding sites,
 * and its base id's versions and latest version where the default release
 * has no version of that base id, from the newest release that has it,
 * rendered with that release's description. Returns id → year for the edge
 * handler, which answers them from these files.
 */
function planElsewhere(plan: OutputPlan, main: Release, others: Release[], base: string, layout: Layout, links?: LinkStyle): Record<string, number> {
  const own = new Set(main.matrices.flatMap((m) => [m.matrixId, m.baseId]));
  const elsewhere: Record<string, number> = {};
  for (const release of [...others].sort((a, b) => b.info.year - a.info.year)) {
    const fresh = release.matrices.filter((m) => !own.has(m.matrixId) && elsewhere[m.matrixId] === undefined);
    if (fresh.length === 0) continue;
    const target = plan.part('', release.info, layout);
    const dirs = new Set<string>();
    for (const m of fresh) {
      elsewhere[m.matrixId] = release.info.year;
      dirs.add(detailDir(layout, m.matrixId));
      target.addLogo(m);
      if (hasSites(m)) target.add(outputFile(sitesPath(m.matrixId)), sitesFile(m));
      if (!own.has(m.baseId) && elsewhere[m.baseId] === undefined) {
        elsewhere[m.baseId] = release.info.year;
        dirs.add(detailDir(layout, m.baseId)).add(versionsDir(layout, m.baseId));
      }
    }
    const baseIds = new Set(fresh.map((m) => m.baseId));
    // Grouped once: the release (4,572 matrices) scanned again for each of 2026's 320 fresh base ids was 0.1-0.24 s of a build's plan (two profiles at load 12-15).
    const versionsOf = byBaseId(release.matrices);
    for (const baseId of [...baseIds].sort()) {
      for (const p of planBaseId(baseId, versionsOf.get(baseId)!, base, layout, links)) if (dirs.has(p.dir)) target.addResource(p);
    }
  }
  return Object.fromEntries(Object.entries(elsewhere).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Where the release uses a value that became a path segment: "collection of MA0004.1". */
function usedBy(matrices: Matrix[], value: string): string | null {
  for (const m of matrices) {
    const fields: [string, string][] = [['matrix_id', m.matrixId], ['base_id', m.baseId], ['collection', m.collection], ['tax_group', m.taxGroup]];
    for (const s of m.species) if (s.taxId !== null) fields.push(['tax_ids', String(s.taxId)]);
    const hit = fields.find(([, v]) => v === value || `${v}.svg` === value);
    if (hit) return `${hit[0]} of ${m.matrixId}`;
  }
  return null;
}

/**
 * planSite with what earlier builds by the same generator sources kept: what the reader made of the input
 * files the fingerprint found unchanged (hashOf: their hashes), the bulk files' records. keep() writes what
 * this build used or made, once the writer has checked the output folder (a refused build writes nothing),
 * before the render: a frame of entries serialized at a time (write/state.ts saveKept), then let go; the bulk
 * files' records are spooled to an unlinked file as they come (write/kept-texts.ts TextSpool) and copied. Held as serialized
 * bytes from the end of the plan, they were about 250 MB at 10x on top of the plan's heap, the build's peak.
 * Nothing changes an entry between the plan and keep(): the writer's check renders nothing.
 */
function planKept(options: BuildOptions, previous: { state: BuildState | null; salt: string; addedOrRemoved?: () => void }, sources: string, hashOf: (real: string) => string | undefined, fingerprint: string): PlannedSite & { keep(): void } {
  const parsed = new ParsedFiles(readKept(options.outDir, 'parsed-files', sources), hashOf, KEPT_APPEND_MAX);
  mark('kept: parsed files read');
  // The previous build's plan, when it is that of the state read (the build that saved it finished) and keyed alike.
  const data = (readKept(options.outDir, 'plan', sources).get('plan') ?? null) as KeptPlanData | null;
  const usable = data !== null && previous.state !== null && data.fingerprint === previous.state.fingerprint && data.salt === previous.salt ? data : null;
  mark('kept: plan read');
  // The bulk files' records go to a spool file as they are rendered, not held to the end of the plan (about 110 MB serialized at 10x).
  const spool = new TextSpool(sources, spoolDir(options.outDir));
  const records = new KeptTexts(readKeptTexts(options.outDir, sources), spool);
  let planned: ReturnType<typeof planSite>;
  mark('kept plan pieces read');
  try {
    planned = planSite(options, { ...previous, parsed, records, kept: { data: usable, fingerprint } });
  } catch (error) {
    spool.close();
    throw error;
  }
  // Each with what this build added to the file it read: appended to it when that file holds few entries this build did not use.
  const pending: (() => void)[] = [];
  const keepParsed = parsed.toKeep();
  if (keepParsed) {
    const append = keptAppend(parsed.before, parsed.usedKeys, parsed.made);
    pending.push(() => saveKept(options.outDir, 'parsed-files', sources, keepParsed, append));
  }
  const keepRecords = records.toKeep();
  if (keepRecords) pending.push(() => saveKeptTexts(options.outDir, sources, keepRecords));
  const keepPlan = planned.keepPlan;
  if (keepPlan) pending.push(() => saveKept(options.outDir, 'plan', sources, new Map([['plan', keepPlan]])));
  // The bulk files rendered again when written (those not held) would otherwise hold every record until then.
  records.forget();
  mark('kept entries to save prepared');
  return { ...planned, keepPlan: undefined, keep: saveOnce(pending) };
}

/**
 * keep() of planKept: made out here, not there, so that it holds the list and not planKept's scope. Made there, it
 * kept that scope's variables the saves refer to (the kept plan, the parsed files) alive with the plan, through the
 * render, after they were saved: the 10x synthetic release's render at about 850-900 MB of RSS against 710-840 without.
 */
function saveOnce(pending: (() => void)[]): () => void {
  return () => pending.splice(0).forEach((save) => save());
}

/** Renders the plan into the writer: the folder checked and marked, every file written or kept, what the plan no longer has removed. */
async function renderInto(plan: OutputPlan, writer: SiteWriter, options: ScheduleOptions, looked?: Promise<TreeChanges | null> | null, opened?: () => void, carry = false, state?: BuildState | null, gone: readonly string[] = []): Promise<WriteReport> {
  // The tasks the folder look cannot let be reused (their key is not the previous build's) are rendered while it
  // runs, on this thread: not when workers were asked for (renderPlan would send every task to them).
  let ahead: Ahead | undefined;
  const here = options.here;
  if (looked && state && options.salt !== undefined && !options.workers && !options.pool) {
    let waiting = true;
    const done = () => {
      waiting = false;
    };
    looked.then(done, done);
    ahead = await renderAhead(plan, options.salt, (first) => state.keys.get(first), () => waiting, here);
    const early = [...ahead.values()].filter((a) => a.contents);
    mark(`${early.length} tasks rendered ahead (${(early.reduce((n, a) => n + a.contents!.reduce((m, c) => m + c.length, 0), 0) / 1e6).toFixed(1)} MB), ${ahead.size} keyed`);
  }
  const changes = looked ? await looked : null;
  mark('folder look awaited');
  // With a file altered since the previous build (its task to be rendered again), every task is planned.
  // Planned then (the folder was altered), the tasks left out are checked as a plan without a kept one checks them: a
  // plan that carried records added or removed checked its new paths against the folder only (kept-plan.ts carries).
  writer.open(plan, changes, carry && (() => {
    plan.planLeftOut();
    plan.checkFolderSizes();
    plan.checkCaseClashes();
  }), gone);
  mark('writer open');
  if (opened) {
    opened();
    mark('kept entries saved');
  }
  try {
    const counts = await renderPlan(plan, { ...options, ahead }, writer);
    mark('rendered');
    const report = writer.close(plan, counts);
    mark('writer closed (pruned)');
    return report;
  } finally {
    writer.stop();
  }
}

/** Renders and writes a plan into outDir and saves the state (a build without its mirror step; tests). */
export async function writeSite(plan: OutputPlan, outDir: string, options: ScheduleOptions & { fingerprint?: string } = {}): Promise<WriteReport> {
  const writer = new SiteWriter(outDir, { fingerprint: options.fingerprint });
  const report = await renderInto(plan, writer, options);
  writer.commit();
  return report;
}

/** A rebuild of a site of at most this many files plans with V8's own heap growth and saves what it kept beside the
 *  archives (build()); the shipped one has 285,000, the 10x synthetic 1,450,000. */
const SMALL_SITE_FILES = 600_000;
/** The flags generator/start.mjs gave the build under this name (BUILD_V8_FLAGS, SMALL_SITE_V8_FLAGS), if it did: a build started otherwise (tests, tsx) keeps V8's. */
function startFlags(name: string): string[] {
  const flags = (globalThis as Record<symbol, unknown>)[Symbol.for(name)];
  return Array.isArray(flags) ? flags.filter((f): f is string => typeof f === 'string') : [];
}
/** The heap growth of a small rebuild from its render on (build()). */
const REBUILD_HEAP_GROWTH = '--heap-growing-percent=100';
/** The heap growth generator/start.mjs set for the build, if it did. */
const heapGrowthFlag = (): string | undefined => startFlags('jaspar.buildFlags').find((f) => f.startsWith('--heap-growing-percent='));
/** Sets start.mjs's SMALL_SITE_V8_FLAGS (incremental marking's triggers) for the render and archives of a site of at most
 *  SMALL_SITE_FILES files; returns what sets V8's own back (0: its heuristics), for a process that builds again. */
function smallSiteFlags(files: number): () => void {
  const flags = files <= SMALL_SITE_FILES ? startFlags('jaspar.smallSiteFlags') : [];
  for (const flag of flags) setFlagsFromString(flag);
  return () => {
    for (const flag of flags) setFlagsFromString(flag.replace(/=.*$/, '=0'));
  };
}

/** The largest file GitHub accepts in a repository (its releases take 2 GB). */
export const GITHUB_FILE_LIMIT = 100 * 1000 * 1000;

/** What a build says of an archive over GitHub's limit a file (a release ten times JASPAR's makes one of about 900 MB):
 *  it is written all the same, and serves from any other host. */
export function oversizedArchive(file: string, bytes: number): string | null {
  if (bytes <= GITHUB_FILE_LIMIT) return null;
  return `${file} is ${(bytes / 1e6).toFixed(1)} MB, over the ${GITHUB_FILE_LIMIT / 1e6} MB a file GitHub accepts in a repository: publish it as a GitHub release asset (up to 2 GB) or from a host without that limit (Netlify, S3), or keep the site's folder out of git`;
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  mark('build');
  const seconds = () => (performance.now() - started) / 1000;
  // Each release's folder, its description, and the release folder its older versions take their counts from (older_versions).
  const inputs = dataDirsOf(options).map((dataDir, i) => {
    const releaseFile = releaseFileFor(dataDir, givenReleaseFile(options, i), DEFAULT_RELEASE_FILE);
    const text = readReleaseText(releaseFile);
    return { dataDir, text, olderVersions: readReleaseInfo(text, (t) => yaml.load(t), releaseFile).olderVersions };
  });
  // Before anything reads or writes the output folder: is it one the build may replace (write/guard.ts)?
  for (const { dataDir, olderVersions } of inputs) guardOutDir(options.outDir, { dataDir, projectRoot: PROJECT_ROOT, otherData: olderVersions === null ? [] : [olderVersions] });
  mark('release descriptions read, folder guarded');
  const base = normaliseBaseUrl(options.baseUrl);
  // Everything the site is built from. Equal to the previous build's, with
  // the output folder as that build left it: the site is up to date.
  const sources = sourcesHash(PROJECT_ROOT);
  mark('sources hashed');
  // How the folder differs from the state, looked at on another thread while this one hashes the inputs and plans
  // (the writer needs it first). Begun before the inputs are hashed (0.1 s of a one-count rebuild's main thread):
  // the look ended after the plan, and the writer waited for it; and from the state file's bytes, before this
  // thread parses them (about 70 ms), not from the records parsed (spelt out for it, 20-30 ms more of this thread).
  // Joined by a second thread when the fingerprint is the state's (the site may be up to date, and this thread has
  // nothing else to do until the look ends: unchangedSiteShared); stopped when the state is not one to trust after all.
  // Its CPU counts in the plan step (cpuUsage counts every thread) but for what it did before the up-to-date
  // check: for the shipped site about 1.2 s, 0.8 s of it the kernel's 285,000 lstats (measured at load 20), which
  // is why the step rose 3.8 -> 4.6 s when the look moved beside the plan.
  const begun: { look: ReturnType<typeof treeLookOffThread> | null } = { look: null };
  const state = readState(options.outDir, (shared) => {
    // Asked for the state once the worker answers, by then parsed (this thread answers it after its step).
    if (existsSync(options.outDir)) begun.look = treeLookOffThread(path.resolve(options.outDir), { shared, state: () => state });
  });
  mark('state read');
  const folderThere = state !== null && existsSync(options.outDir);
  let look = begun.look;
  if (folderThere) look ??= treeLookOffThread(path.resolve(options.outDir), state);
  else {
    look?.stop();
    look = null;
  }
  // Each folder hashed once (JASPAR 2024 is a release and JASPAR 2026's older versions), its unchanged files not read again.
  const known = { before: readInputHashes(options.outDir), next: new Map(), recent: new Map<string, string>() };
  const hashes = new Map<string, string>();
  const hashOfData = (dir: string) => hashes.get(path.resolve(dir)) ?? hashes.set(path.resolve(dir), dataHash(dir, known)).get(path.resolve(dir))!;
  const fingerprint = hashOf(sources, ...inputs.flatMap((r) => [hashOfData(r.dataDir), r.olderVersions === null ? '' : hashOfData(r.olderVersions), r.text]), base, options.profile ?? 'full', ...linksKey(options));
  // Kept with the state, by a build that did not fail (a refused build leaves the state as it was).
  const keepHashes = () => {
    if (known.next.size !== known.before.size || [...known.next].some(([file, k]) => known.before.get(file) !== k)) saveInputHashes(options.outDir, known.next);
  };
  mark('input folders hashed');
  const previous = look ? await unchangedSiteShared(options.outDir, fingerprint, state!, look) : null;
  mark('up-to-date check');
  if (previous) {
    keepHashes();
    printTimeline();
    return { ...(previous.report as PlanReport), seconds: seconds(), written: 0, removed: 0, upToDate: true, tasks: { rendered: 0, reused: 0 }, archiveMembers: { made: 0, reused: 0 } };
  }

  const cpuAt = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const cpu0 = cpuAt();
  // A task's key covers what it renders from; the salt covers what renders it (each part's release and layout are added to it).
  const salt = hashOf(sources, base, ...linksKey(options));
  const looked = look?.found ?? null;
  looked?.then(() => mark('folder look done (its thread)'));
  // A rebuild of a site of the shipped size plans with V8's own heap growth, not the build's 30% (generator/start.mjs
  // BUILD_V8_FLAGS, for the peak of large builds): its heap grows from 20 to about 75 MB while it reads what was kept and
  // plans, and growing by 30% at a time took five or six full collections to get there, 0.2-0.3 s of pauses (--trace-gc,
  // a one-count rebuild at load 9). A large site's plan is as before.
  const smallRebuild = state !== null && state.files.size <= SMALL_SITE_FILES;
  // Records' texts kept across builds for the render workers (pipeline/fragments.ts), saved with the state. A rebuild
  // renders its few tasks on this thread with them too (pipeline/here-fragments.ts), the file read while it plans.
  const fragments = new FragmentSpool(options.outDir, salt);
  const here = state !== null && !options.workers ? new HereFragments(fragments) : undefined;
  const growth = smallRebuild ? heapGrowthFlag() : undefined;
  if (growth) setFlagsFromString('--heap-growing-percent=0');
  // A rebuild after records were added or removed renders the pages they shift on the render workers: started as soon as
  // the plan knows (schedule.ts startRenderPool), their start and the kept texts' store opened beside the plan.
  let early = null as RenderPool | null;
  const addedOrRemoved = options.workers === 0 ? undefined : () => {
    early = startRenderPool(fragments, options.workers);
    mark('render worker started (records added or removed)');
  };
  // Plan: every output path, with its content or the task that renders it.
  let planned: (PlannedSite & { keep(): void }) | null;
  try {
    planned = planKept(options, { state, salt, addedOrRemoved }, sources, (real) => known.next.get(real)?.hash ?? known.recent.get(real), fingerprint);
  } catch (error) {
    await early?.close();
    throw error;
  }
  const report = planned.report;
  // Then, to the end of the build, a heap twice its live size after each full collection: at the build's 30% a
  // one-count rebuild's main thread made two full collections in the archives, 200 -> 93 MB and 108 -> 70 MB
  // (--trace-gc, load 8: 97 and 123 ms of pause, on their way), none of which the process, about to exit, needed;
  // now the full collection that ends its render (about 150 MB live) leaves a limit of about 300 MB, and only the one
  // the archives' buffers start (V8's external memory, which this growth does not move) is left.
  if (growth) setFlagsFromString(REBUILD_HEAP_GROWTH);
  const smallSiteDone = smallSiteFlags(state?.files.size ?? report.files);
  const cpuPlanned = cpuAt();
  mark('planned');
  // A rebuild's archives write on a mirror thread each (mirror/gzip.ts ArchiveStream): started once the folder
  // look's thread is done, its core otherwise idle while this one renders, not when the archives begin, on
  // their way (a thread's start is 30-40 ms of CPU).
  if (state !== null && options.profile !== 'compact') {
    const threads = report.releases.length;
    const start = () => {
      startThreadsAhead(threads);
      mark('mirror threads started');
    };
    if (looked) looked.then(start, () => {});
    else start();
  }
  // Render → write: every task not reused is rendered (by the workers for a large plan), every file's bytes go to the writer.
  const writer = new SiteWriter(options.outDir, { fingerprint, progress: options.progress, previous: state });
  // What the plan kept for the next build is written once the writer has checked the folder (a refused
  // build writes nothing), not held through the render: serialized, it was about 250 MB at 10x.
  // A rebuild of a small site saves them while the archives are made (their threads compress, this one mostly waits):
  // before the render they were 20-80 ms of a one-count rebuild's main thread, on its way. A large site's are saved
  // before its render, not held through it.
  const keep = planned.keep;
  // renderPlan closes the early workers; a render that fails before it does not.
  const written = await renderInto(planned.plan, writer, { salt, workers: options.workers, fragments, here, ...(early ? { early } : {}) }, looked, smallRebuild ? undefined : keep, planned.carry, state, planned.gone).finally(() => early?.close());
  const leftOut = planned.plan.leftOutCount;
  // Let the plan go before the mirror step, which reads what the writer wrote: every planned path and the
  // records its bulk files render from (about 700 MB of heap for the 10x synthetic release) were held
  // through the archives otherwise, the longest step of a large build.
  planned = null;
  const cpuWritten = cpuAt();
  // Offline mirror (issue 7): archive + manifest of the written site; kept when unchanged. Not in a compact
  // build: the archive alone (92 MB) is over the 25 MiB a Cloudflare asset may have.
  // One archive per release (each under GitHub's 100 MB a file): the site's root without the other releases' sites, and each of those.
  const others = report.releases.filter((r) => !r.default).map((r) => releasePrefix(r.year).slice(0, -1));
  const archiveMembers = { made: 0, reused: 0, patched: 0 };
  const archiveNotes: string[] = [];
  let hashesKept = false;
  const scopes: MirrorScope[] = others.length === 0 ? [WHOLE_SITE] : [{ dir: '', exclude: [RELEASES_DIR.slice(1, -1)] }, ...others.map((dir) => ({ dir, exclude: [] }))];
  if (options.profile !== 'compact') {
    // After an incremental write, each archive reuses the members whose files the writer did not write
    // (mirror/archive.ts); the writer says what the folder holds (its paths spelt as an archive not patched
    // iterates them).
    const listing = writer.listing();
    const mirror = (scope: MirrorScope) => {
      mark(`mirror ${scope.dir || 'root'} begins`);
      return writeMirror(options.outDir, { siteChanged: written.written > 0 || written.removed > 0, scope, written: written.changed, listChanged: written.removed > 0 || writer.grew(), listing, intact: (rel) => writer.intact(rel) }).finally(() => mark(`mirror ${scope.dir || 'root'} done`));
    };
    // A rebuild that rewrote a small part of the site makes the archives at once: each mostly copies the
    // previous one's members and waits on its thread, and one after the other they were 0.57 + 0.42 s of a
    // one-count rebuild's wall. A build that rewrote most of it makes them one after the other: each reads
    // every file and lists the whole scope, and two at once would hold both listings (the 10x release's peak).
    const atOnce = written.changed !== null && written.written * 4 < written.files;
    const made: MirrorReport[] = [];
    if (atOnce) {
      const archives = Promise.allSettled(scopes.map(mirror));
      let failed: { error: unknown } | null = null;
      if (smallRebuild) {
        hashesKept = true;
        try {
          keep();
          // The input files' hashes too (facts about the inputs, true whether or not the archives fail).
          keepHashes();
          mark('kept entries and input hashes saved (beside the archives)');
        } catch (error) {
          failed = { error };
        }
      }
      // Both finished (their temporary files removed) before a failure of either is the build's.
      for (const r of await archives) {
        if (r.status === 'rejected') throw r.reason;
        made.push(r.value);
      }
      if (failed) throw failed.error;
    } else {
      if (smallRebuild) keep();
      for (const scope of scopes) made.push(await mirror(scope));
    }
    for (const [k, scope] of scopes.entries()) {
      const m = made[k];
      archiveMembers.made += (m.members ?? 0) - (m.reused ?? 0);
      archiveMembers.reused += m.reused ?? 0;
      if (m.patched) archiveMembers.patched++;
      const note = oversizedArchive(scopeFiles(scope).archive, m.archiveBytes);
      if (note) archiveNotes.push(note);
    }
  }
  // A full build's archives and manifests in the folder are that step's files (the writer keeps them): gone with it.
  else {
    if (smallRebuild) keep();
    removeMirror(options.outDir, [WHOLE_SITE, ...scopes]);
  }
  mark('mirror done');
  const cpu = { plan: cpuPlanned - cpu0, site: cpuWritten - cpuPlanned, mirror: cpuAt() - cpuWritten };
  const done: PlanReport = { ...report, files: written.files, bytes: written.bytes, notes: [...report.notes, ...archiveNotes] };
  // The mirror step writes in its scopes' download folders, and its temporary files at the root: no other folder is looked at again.
  writer.commit(done, ['', ...new Set([WHOLE_SITE, ...scopes].flatMap((s) => Object.values(scopeFiles(s)).map((f) => path.posix.dirname(f))))]);
  fragments.save();
  mark('state saved');
  if (!hashesKept) {
    keepHashes();
    mark('input hashes saved');
  }
  smallSiteDone();
  // The build's own growth again, for a process that builds again.
  if (growth) setFlagsFromString(growth);
  printTimeline();
  return { ...done, seconds: seconds(), written: written.written, removed: written.removed, upToDate: false, cpu, tasks: { rendered: written.rendered, reused: written.reused, kept: leftOut }, archiveMembers };
}
