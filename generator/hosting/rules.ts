// Netlify routing as data, most specific first, printed in one step to
// _redirects and _headers in the output folder (they depend on the number of
// list pages, so they are build output, not configuration).
//
// Host behaviour that shaped the rules (checked with `netlify dev`, see
// test/e2e/netlify-routing.test.ts):
// - A rule matches path + query; the first matching rule wins; extra query
//   parameters and their order do not matter; "/x" also matches "/x/".
// - A forced rewrite to a file that does not exist answers with the site's
//   /404.html: rules never fall through to the next one. So an out-of-range
//   page cannot be caught by a placeholder rule: every valid (format, page)
//   pair is a literal rule, and the placeholder rules after them catch the
//   rest with the JSON errors of the real service.
// - netlify dev answers a forced 200 rewrite to a missing file with the
//   rule's status (200) and /404.html as the body.
// - A rule that is not forced is skipped when the request path is a file
//   (or a folder with index.html).
// - Headers match the path of the file served (after the rewrite).
//   Production Netlify applies a custom Content-Type; `netlify dev` keeps
//   the type of the file extension (it writes the static server's headers
//   over the custom ones).
import { FORMAT_IDS, FORMATS, DEFAULT_FORMAT, type FormatId } from '../formats/registry.ts';
import { API, LIST, detailDir, errorPaths, fileName, listDir, outputPath, versionsDir } from '../routes/urls.ts';

export interface RedirectRule {
  from: string;
  query?: Record<string, string>;
  to: string;
  status: 200 | 404;
  force: boolean;
}

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}

export interface KnownIds {
  matrixIds: string[];
  baseIds: string[];
}

export function redirectRules(pageCount: number, ids: KnownIds): RedirectRule[] {
  const rules: RedirectRule[] = [];
  const rewrite = (query: Record<string, string> | undefined, to: string, from = LIST): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 200, force: true });
  const error = (query: Record<string, string> | undefined, to: string, from = LIST): RedirectRule =>
    ({ from, ...(query ? { query } : {}), to, status: 404, force: true });
  const pageFile = (page: number, format: FormatId) => `/${outputPath(listDir(page), format)}`;

  // The list: /api/v1/matrix?format=F&page=N, every valid pair literally.
  for (const format of FORMAT_IDS) {
    for (let page = 1; page <= pageCount; page++) rules.push(rewrite({ format, page: String(page) }, pageFile(page, format)));
  }
  // DRF also answers page=last with the last page.
  for (const format of FORMAT_IDS) rules.push(rewrite({ format, page: 'last' }, pageFile(pageCount, format)));
  // A known format with any other page value: the real service's 404.
  for (const format of FORMAT_IDS) rules.push(error({ format, page: ':page' }, errorPaths.invalidPage));
  for (const format of FORMAT_IDS) rules.push(rewrite({ format }, pageFile(1, format)));
  rules.push(error({ format: ':format' }, errorPaths.notFound));
  for (let page = 1; page <= pageCount; page++) rules.push(rewrite({ page: String(page) }, pageFile(page, DEFAULT_FORMAT)));
  rules.push(rewrite({ page: 'last' }, pageFile(pageCount, DEFAULT_FORMAT)));
  rules.push(error({ page: ':page' }, errorPaths.invalidPage));
  rules.push(rewrite(undefined, pageFile(1, DEFAULT_FORMAT)));

  // Versions and details. With ?format=F the id is a placeholder (one rule
  // per format). Without a format the real service answers JSON, and the
  // folder also holds index.html for static hosts, so the default rule must be
  // forced; a forced placeholder would answer 200 for unknown ids, hence one
  // literal rule per known id and a catch-all 404 after them.
  for (const [from, dir] of [
    [`${LIST}/:id/versions`, `${LIST}/:id/versions/`],
    [`${LIST}/:id`, `${LIST}/:id/`],
  ] as const) {
    for (const format of FORMAT_IDS) rules.push(rewrite({ format }, `${dir}${fileName(format)}`, from));
    rules.push(error({ format: ':format' }, errorPaths.notFound, from));
  }
  for (const baseId of ids.baseIds) rules.push(rewrite(undefined, `/${outputPath(versionsDir(baseId), DEFAULT_FORMAT)}`, `${LIST}/${baseId}/versions`));
  for (const id of [...ids.matrixIds, ...ids.baseIds]) rules.push(rewrite(undefined, `/${outputPath(detailDir(id), DEFAULT_FORMAT)}`, `${LIST}/${id}`));
  // Anything else under the API that is not a file: the real service's 404.
  // Not forced, so every existing file (path URLs) is still served.
  rules.push({ from: `${API}/*`, to: errorPaths.notFound, status: 404, force: false });
  return rules;
}

export function headerRules(): HeaderRule[] {
  const rules: HeaderRule[] = [
    // The real service sends Vary: Accept; CORS is what the real one lacks.
    { for: '/api/*', values: { 'Access-Control-Allow-Origin': '*', Vary: 'Accept' } },
    { for: '/static/*', values: { 'Access-Control-Allow-Origin': '*' } },
    { for: '/download/*', values: { 'Access-Control-Allow-Origin': '*' } },
  ];
  for (const format of FORMAT_IDS) {
    rules.push({ for: `/api/*/${fileName(format)}`, values: { 'Content-Type': FORMATS[format].mediaType } });
  }
  rules.push({ for: '/api/v1/errors/*', values: { 'Content-Type': 'application/json' } });
  rules.push({ for: '/download/bed_files/*', values: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return rules;
}

export function printRedirects(rules: RedirectRule[]): string {
  const lines = ['# Generated by the JASPAR static API build: do not edit (generator/hosting/rules.ts).'];
  for (const r of rules) {
    const query = r.query ? Object.entries(r.query).map(([k, v]) => ` ${k}=${v}`).join('') : '';
    lines.push(`${r.from}${query} ${r.to} ${r.status}${r.force ? '!' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export function printHeaders(rules: HeaderRule[]): string {
  const lines = ['# Generated by the JASPAR static API build: do not edit (generator/hosting/rules.ts).'];
  for (const r of rules) {
    lines.push(r.for);
    for (const [k, v] of Object.entries(r.values)) lines.push(`  ${k}: ${v}`);
  }
  return `${lines.join('\n')}\n`;
}
