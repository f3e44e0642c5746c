// The pipeline, top to bottom: read the release description and the
// dataset → validate (all problems at once) → plan every resource → render
// each in every format, plus logos, sites, errors and host rules → write
// what changed (write/writer.ts; render workers do the rendering, see
// generator/pipeline/). A build whose inputs (release, generator, options)
// and output folder are as the previous build left them stops early.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { readReleaseInfo, readReleaseText } from './dataset/load.ts';
import { readRelease, releaseFileFor } from './dataset/read.ts';
import type { Matrix } from './dataset/types.ts';
import type { Resource } from './formats/types.ts';
import { FORMATS, FORMAT_IDS } from './formats/registry.ts';
import { headerRules, printHeaders } from './hosting/headers.ts';
import { printRedirects, redirectRules } from './hosting/rules.ts';
import { serverConfigs } from './hosting/servers.ts';
import { homePage } from './pages/home.ts';
import { notFoundPage } from './pages/not-found.ts';
import { searchIndex, searchPage } from './pages/search.ts';
import { apiExtras, routingInput } from './plan/api-extras.ts';
import { planEndpoints } from './plan/endpoints.ts';
import { defaultPageCount, planListPages, planResources, withFormat } from './plan/resources.ts';
import {
  DEFAULT_PAGE_SIZE, EMPTY_LIST_DIR, HOME, LIST, NOT_FOUND_PAGE, NOT_FOUND_PEOPLE, SEARCH_INDEX, SEARCH_JS, SEARCH_PAGE, SITE_CSS, SITE_JS, basePathOf, errorPaths, outputFile, outputPath, sitesPath, normaliseBaseUrl,
} from './routes/urls.ts';
import { withRoutes } from './routes/client.ts';
import { OutputPlan, SiteWriter, unchangedSite } from './write/writer.ts';
import { guardOutDir } from './write/guard.ts';
import { dataHash, hashOf, sourcesHash } from './pipeline/fingerprint.ts';
import { formatContext } from './pipeline/render.ts';
import { chooseLayout, type Layout } from './routes/shard.ts';
import { removeMirror, writeMirror } from './write/mirror.ts';
import { downloadFiles } from './plan/mirror.ts';
import { edgeIndexFiles } from './edge/build-indexes.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DATA = path.join(PROJECT_ROOT, 'data/jaspar-2024');
export const DEFAULT_RELEASE_FILE = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
export const DEFAULT_BASE_URL = 'http://localhost:8080';
const ASSETS = path.join(PROJECT_ROOT, 'generator/assets');

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  baseUrl: string;
  /** Default: data/release-<year>.yaml for JASPAR's download files of that year, else DEFAULT_RELEASE_FILE. */
  releaseFile?: string;
  /** Render worker threads (0: render on this thread); default one per core for a large release. */
  workers?: number;
  /** Progress on stderr when it is a terminal. */
  progress?: boolean;
  /** The folder layout (routes/shard.ts); default: chosen from the release's size. Tests force a sharded layout on a small release. */
  layout?: Layout;
  /** full (default): every file; compact: what the edge handler cannot render from its indexes (issue 14, Cloudflare's file limit; edge/render-missing.ts). */
  profile?: Profile;
}

export const PROFILES = ['full', 'compact'] as const;
export type Profile = (typeof PROFILES)[number];

export interface BuildReport {
  matrices: number;
  listPages: number;
  files: number;
  bytes: number;
  rules: number;
  seconds: number;
  /** Files written because their bytes changed, and files and folders removed. */
  written: number;
  removed: number;
  /** True when inputs and output folder were as the previous build left them: nothing was done. */
  upToDate: boolean;
  /** What the reader says about the input (JASPAR download files used in part or ignored); none for a curated release. */
  notes: string[];
}

const NOT_FOUND = '{"detail":"Not found."}';
const INVALID_PAGE = '{"detail":"Invalid page."}';

type PlanReport = Omit<BuildReport, 'seconds' | 'written' | 'removed' | 'upToDate'>;

/** Plans the whole site: contents of the small files, rendering tasks for the rest (plan.files renders them when read); nothing is written. */
export function planSite(options: BuildOptions): { plan: OutputPlan; report: PlanReport } {
  const releaseFile = releaseFileFor(options.dataDir, options.releaseFile, DEFAULT_RELEASE_FILE);
  const info = readReleaseInfo(readReleaseText(releaseFile), (t) => yaml.load(t), releaseFile);
  const { release, notes } = readRelease(options.dataDir, info);
  // Shard folders only for a release too large for one folder (routes/shard.ts).
  // Chosen once here and passed to everything that names a path.
  const ids = { matrixIds: release.matrices.map((m) => m.matrixId), baseIds: [...new Set(release.matrices.map((m) => m.baseId))] };
  const layout = options.layout ?? chooseLayout(ids);
  const base = normaliseBaseUrl(options.baseUrl);
  const planned = [...planResources(release, base, layout), ...planEndpoints(release, base, layout)];
  const context = formatContext(info, layout);
  // A compact build leaves out every resource, the first-page copies and the
  // logos: the edge handler renders them from its indexes (edge/render-missing.ts).
  const compact = options.profile === 'compact';

  const plan = new OutputPlan(info, layout);
  const listPages = defaultPageCount(release);
  // Rendered later, by the render workers, in each of the resource's formats (resources.ts formatsOf).
  if (!compact) {
    for (const p of planned) plan.addResource(p);
    // Static hosts answer /api/v1/matrix/ with this folder's index.html: page 1 for people.
    const firstPage = planned.find((p) => p.neighbours?.previous === null && p.resource.kind === 'list')!;
    plan.add(outputFile(`${LIST}/`), FORMATS.api.render(withFormat(firstPage, 'api'), context));
  }
  // A filter value the release does not hold: the service answers an empty list (nginx, Caddy, Apache serve these).
  const [empty] = planListPages([], DEFAULT_PAGE_SIZE, {}, base, layout);
  const emptyResource: Resource = { ...empty.resource, nav: { ...empty.resource.nav!, title: 'Matrix List (no matrix matches these filters)', formats: [], pages: undefined } };
  for (const format of FORMAT_IDS) plan.add(outputPath(EMPTY_LIST_DIR, format), FORMATS[format].render(withFormat(empty, format, emptyResource), context));
  for (const m of release.matrices) {
    if (!compact) plan.addLogo(m);
    if (m.sites !== null) plan.add(outputFile(sitesPath(m.matrixId)), m.sites);
  }
  plan.add(outputFile(errorPaths.notFound), NOT_FOUND);
  plan.add(outputFile(errorPaths.invalidPage), INVALID_PAGE);
  // Netlify and http-server answer every missing file with /404.html: for an
  // unknown matrix that is the real service's answer.
  plan.add(outputFile(NOT_FOUND_PAGE), NOT_FOUND);
  // Browsers get this one instead where the host reads Accept (hosting/routing.ts errors.people).
  plan.add(outputFile(NOT_FOUND_PEOPLE), notFoundPage(release, base));
  const rules = redirectRules(routingInput(release, listPages, layout, base));
  plan.add('_redirects', printRedirects(rules));
  // The other endpoints' extras: error bodies, OpenAPI description, documentation page.
  for (const [file, content] of apiExtras(release, base, planned, context, { copies: !compact })) plan.add(file, content);
  const root = basePathOf(base);
  plan.add('_headers', printHeaders(headerRules(root)));
  // nginx, Caddy and Apache answer the same query URLs from the files, with their own config (hosting/servers.ts).
  for (const [file, content] of serverConfigs({ prefix: root, layout, pageCount: listPages, year: release.info.year })) plan.add(file, content);
  plan.add(outputFile(SITE_CSS), readFileSync(path.join(ASSETS, 'site.css')));
  // The scripts with the route map in front (routes/client.ts).
  plan.add(outputFile(SITE_JS), withRoutes(readFileSync(path.join(ASSETS, 'site.js')), layout, root));
  plan.add(outputFile(SEARCH_JS), withRoutes(readFileSync(path.join(ASSETS, 'search.js')), layout, root));
  plan.add(outputFile(SEARCH_INDEX), searchIndex(release));
  plan.add(outputFile(SEARCH_PAGE), searchPage(release, base));
  plan.add(outputFile(HOME), homePage(release, base, layout, listPages, { archive: !compact }));
  // Offline mirror (issue 7): the list in one file per format, JASPAR's bundles, the downloads page.
  for (const [file, content] of downloadFiles(release, base, layout, context, { archive: !compact })) plan.add(file, content);
  // The edge handler's indexes (issue 14, generator/edge/): what it filters, orders and renders from.
  for (const [file, content] of edgeIndexFiles(release, base, layout, { compact })) plan.add(file, content);
  plan.checkFolderSizes();
  plan.checkCaseClashes((value) => usedBy(release.matrices, value));
  return {
    plan,
    report: { matrices: release.matrices.length, listPages, files: plan.files.size, bytes: plan.bytes, rules: rules.length, notes },
  };
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

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  // Before anything reads or writes the output folder: is it one the build may replace (write/guard.ts)?
  guardOutDir(options.outDir, { dataDir: options.dataDir, projectRoot: PROJECT_ROOT });
  const base = normaliseBaseUrl(options.baseUrl);
  const releaseFile = releaseFileFor(options.dataDir, options.releaseFile, DEFAULT_RELEASE_FILE);
  // Everything the site is built from. Equal to the previous build's, with
  // the output folder as that build left it: the site is up to date.
  const sources = sourcesHash(PROJECT_ROOT);
  const fingerprint = hashOf(sources, dataHash(options.dataDir), readReleaseText(releaseFile), base, options.profile ?? 'full');
  const previous = unchangedSite(options.outDir, fingerprint);
  if (previous) return { ...(previous.report as PlanReport), seconds: seconds(), written: 0, removed: 0, upToDate: true };

  const { plan, report } = planSite(options);
  // A task's key covers what it renders from; the salt covers what renders it.
  const salt = hashOf(sources, base, JSON.stringify(plan.release), JSON.stringify(plan.layout));
  const writer = new SiteWriter(options.outDir, { fingerprint, salt, workers: options.workers, progress: options.progress });
  const written = await writer.write(plan);
  // Offline mirror (issue 7): archive + manifest of the written site; kept when unchanged. Not in a compact
  // build: the archive alone (92 MB) is over the 25 MiB a Cloudflare asset may have.
  if (options.profile !== 'compact') await writeMirror(options.outDir, { siteChanged: written.written > 0 || written.removed > 0 });
  // A full build's archive and manifest in the folder are that step's files (the writer keeps them): gone with it.
  else removeMirror(options.outDir);
  const done: PlanReport = { ...report, files: written.files, bytes: written.bytes };
  writer.commit(done);
  return { ...done, seconds: seconds(), written: written.written, removed: written.removed, upToDate: false };
}
