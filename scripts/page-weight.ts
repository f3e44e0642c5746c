// How heavy the browsable pages are: for one page of each type (PAGES), the
// bytes of the HTML and of the CSS, JS and images it loads at once (read from
// the built files found in the HTML; images with loading="lazy", the list's
// logos, are left out), raw and gzip (level 9), and the total; plus the
// search index the search page fetches.
//
//   npx tsx scripts/page-weight.ts [SITE_DIR]      (default: public)
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const site = path.resolve(process.argv[2] ?? 'public');
if (!existsSync(path.join(site, 'index.html'))) {
  process.stderr.write(`page-weight: ${site} does not look like a built site (no index.html); build it first: npx tsx generator/cli.ts --out ${process.argv[2] ?? 'public'}\n`);
  process.exit(1);
}

// One page of each type people see; budgets (issue 20): a matrix page ≤ 30 KB and a list page ≤ 100 KB transferred (gzip).
const PAGES: [string, string][] = [
  ['home', '/'],
  ['list page 1', '/api/v1/matrix/page/1/'],
  ['list page 1, 100 a page', '/api/v1/matrix/page_size/100/page/1/'],
  ['detail MA0139.1', '/api/v1/matrix/MA0139.1/'],
  ['detail MA0014.2 (binding sites)', '/api/v1/matrix/MA0014.2/'],
  ['versions MA0014', '/api/v1/matrix/MA0014/versions/'],
  ['collections', '/api/v1/collections/page/1/'],
  ['species, 100 a page', '/api/v1/species/page_size/100/page/1/'],
  ['search page', '/search/'],
  ['downloads', '/download/'],
];
const SEARCH_INDEX = '/static/search/index.json';

interface Weight { raw: number; gzip: number }
const weigh = (bytes: Buffer): Weight => ({ raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
const add = (a: Weight, b: Weight): Weight => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip });
const ZERO: Weight = { raw: 0, gzip: 0 };

/** The file behind a root-relative URL ("/x/" → x/index.html). */
function fileOf(url: string): string {
  const clean = url.split(/[?#]/)[0];
  return path.join(site, clean.endsWith('/') ? `${clean}index.html` : clean);
}

/** Root-relative URLs of the stylesheets and scripts an HTML page loads (off-site ones are reported, not counted). */
function assets(html: string): { css: string[]; js: string[]; img: string[]; offSite: string[] } {
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(2).find((v) => v !== undefined);
  const css: string[] = [];
  const js: string[] = [];
  const img: string[] = [];
  const offSite: string[] = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
    const href = attr(tag, 'href');
    if (rel.includes('stylesheet') && href) (href.startsWith('/') && !href.startsWith('//') ? css : offSite).push(href);
  }
  for (const [tag] of html.matchAll(/<img\b[^>]*>/gi)) {
    const src = attr(tag, 'src');
    if (src && attr(tag, 'loading') !== 'lazy') (src.startsWith('/') && !src.startsWith('//') ? img : offSite).push(src);
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(tag, 'src');
    if (src) (src.startsWith('/') && !src.startsWith('//') ? js : offSite).push(src);
  }
  return { css, js, img: [...new Set(img)], offSite };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const cell = (w: Weight) => `${String(w.raw).padStart(8)} B ${kb(w.raw).padStart(10)}  ${String(w.gzip).padStart(7)} B ${kb(w.gzip).padStart(9)}`;
const row = (label: string, w: Weight) => `  ${label.padEnd(34)}${cell(w)}`;

const out: string[] = [`Page weight of ${site} (bytes as stored; gzip = node:zlib level 9)`, `  ${''.padEnd(34)}${'raw'.padStart(21)}  ${'gzip'.padStart(19)}`];
for (const [label, url] of PAGES) {
  const htmlFile = fileOf(url);
  if (!existsSync(htmlFile)) {
    out.push(`${label} (${url}): missing (${path.relative(site, htmlFile)})`);
    continue;
  }
  const htmlBytes = readFileSync(htmlFile);
  const { css, js, img, offSite } = assets(htmlBytes.toString('utf8'));
  const html = weigh(htmlBytes);
  const part = (urls: string[]) => urls.reduce((sum, u) => (existsSync(fileOf(u)) ? add(sum, weigh(readFileSync(fileOf(u)))) : sum), ZERO);
  const cssW = part(css);
  const jsW = part(js);
  const imgW = part(img);
  out.push(`${label} (${url})`);
  out.push(row('HTML', html));
  out.push(row(`CSS ${css.join(' ') || '(none)'}`, cssW));
  out.push(row(`JS ${js.join(' ') || '(none)'}`, jsW));
  out.push(row(`images ${img.join(' ') || '(none)'}`, imgW));
  out.push(row('total', add(add(add(html, cssW), jsW), imgW)));
  const missing = [...css, ...js, ...img].filter((u) => !existsSync(fileOf(u)));
  if (missing.length) out.push(`  missing assets: ${missing.join(', ')}`);
  if (offSite.length) out.push(`  loaded from another host (not counted): ${offSite.join(', ')}`);
}
const indexFile = fileOf(SEARCH_INDEX);
out.push(`search index (${SEARCH_INDEX}, fetched by the search page)`);
out.push(existsSync(indexFile) ? row('JSON', weigh(readFileSync(indexFile))) : '  missing');
process.stdout.write(`${out.join('\n')}\n`);
