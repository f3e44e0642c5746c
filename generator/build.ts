// The pipeline, top to bottom: read the release description and the
// dataset → validate (all problems at once) → plan every resource → render
// each in every format, plus logos, sites, errors and host rules → write
// into a temporary folder and swap it in.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { loadRelease, readReleaseInfo } from './dataset/load.ts';
import { FORMAT_IDS, FORMATS } from './formats/registry.ts';
import type { FormatContext } from './formats/types.ts';
import { headerRules, printHeaders } from './hosting/headers.ts';
import { printRedirects, redirectRules } from './hosting/rules.ts';
import { renderLogoSvg } from './logos/svg.ts';
import { homePage } from './pages/home.ts';
import { SEARCH_INDEX, SEARCH_JS, searchIndex, searchPage } from './pages/search.ts';
import { planResources, withFormat } from './resources.ts';
import { LIST, detailDir, errorPaths, logoPath, outputPath, pageHref, sitesPath, normaliseBaseUrl } from './routes/urls.ts';
import { OutputPlan, writeSite } from './write/writer.ts';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DATA = path.resolve(PROJECT_ROOT, '../shared/jaspar/2024');
export const DEFAULT_RELEASE_FILE = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
export const DEFAULT_BASE_URL = 'http://localhost:8080';
const ASSETS = path.join(PROJECT_ROOT, 'generator/assets');

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  baseUrl: string;
  releaseFile?: string;
}

export interface BuildReport {
  matrices: number;
  listPages: number;
  files: number;
  bytes: number;
  rules: number;
  seconds: number;
}

const NOT_FOUND = '{"detail":"Not found."}';
const INVALID_PAGE = '{"detail":"Invalid page."}';

/** Renders the whole site in memory; nothing is written. */
export function planSite(options: BuildOptions): { plan: OutputPlan; report: Omit<BuildReport, 'seconds'> } {
  const releaseFile = options.releaseFile ?? DEFAULT_RELEASE_FILE;
  const info = readReleaseInfo(readFileSync(releaseFile, 'utf8'), (t) => yaml.load(t), releaseFile);
  const release = loadRelease(options.dataDir, info);
  const base = normaliseBaseUrl(options.baseUrl);
  const planned = planResources(release, base);
  const context: FormatContext = {
    release: info,
    logoHref: logoPath,
    detailHref: (matrixId) => pageHref(detailDir(matrixId)),
  };

  const plan = new OutputPlan();
  let listPages = 0;
  for (const p of planned) {
    if (p.resource.kind === 'list') listPages++;
    for (const format of FORMAT_IDS) {
      plan.add(outputPath(p.dir, format), FORMATS[format].render(withFormat(p, format, base), context));
    }
  }
  // Static hosts answer /api/v1/matrix/ with this folder's index.html: page 1 for people.
  const firstPage = planned.find((p) => p.resource.kind === 'list' && p.neighbours?.previous === null)!;
  plan.add(`${LIST.slice(1)}/index.html`, FORMATS.api.render(withFormat(firstPage, 'api', base), context));
  for (const m of release.matrices) {
    plan.add(logoPath(m.matrixId).slice(1), renderLogoSvg(m.pfm));
    if (m.sites !== null) plan.add(sitesPath(m.matrixId).slice(1), m.sites);
  }
  plan.add(errorPaths.notFound.slice(1), NOT_FOUND);
  plan.add(errorPaths.invalidPage.slice(1), INVALID_PAGE);
  // Netlify and http-server answer every missing file with /404.html: for an
  // unknown matrix that is the real service's answer.
  plan.add('404.html', NOT_FOUND);
  const baseIds = [...new Set(release.matrices.map((m) => m.baseId))].sort();
  const rules = redirectRules(listPages, { matrixIds: release.matrices.map((m) => m.matrixId).sort(), baseIds });
  plan.add('_redirects', printRedirects(rules));
  plan.add('_headers', printHeaders(headerRules()));
  plan.add('static/api/site.css', readFileSync(path.join(ASSETS, 'site.css')));
  plan.add('static/api/site.js', readFileSync(path.join(ASSETS, 'site.js')));
  plan.add(SEARCH_JS.slice(1), readFileSync(path.join(ASSETS, 'search.js')));
  plan.add(SEARCH_INDEX.slice(1), searchIndex(release));
  plan.add('search/index.html', searchPage(release));
  plan.add('index.html', homePage(release, base, listPages));
  plan.checkFolderSizes();
  return {
    plan,
    report: { matrices: release.matrices.length, listPages, files: plan.files.size, bytes: plan.bytes, rules: rules.length },
  };
}

export async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const { plan, report } = planSite(options);
  await writeSite(plan, options.outDir);
  return { ...report, seconds: (performance.now() - started) / 1000 };
}
