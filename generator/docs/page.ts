// The documentation page (/api/v1/live-api/), generated from the OpenAPI
// description: every endpoint with its parameters, pre-rendered values,
// errors and an example link. rbioapi's health check asks HEAD /api/v1/live-api/.
import { escapeHtml, htmlHead, rebase, siteFooter, siteHeader } from '../formats/api.ts';
import { OPENAPI_JSON, OPENAPI_YAML, ROOT_DIR, basePathOf } from '../routes/urls.ts';
import type { OpenApi, Parameter } from './openapi.ts';

function values(p: Parameter): string {
  const schema = p.schema as { enum?: unknown[]; default?: unknown; minimum?: number; type?: string };
  if (schema.enum) return schema.enum.map((v) => `<code>${escapeHtml(String(v))}</code>`).join(' ');
  return schema.type ? `<code>${escapeHtml(schema.type)}</code>` : '';
}

export function docsPage(api: OpenApi, releaseName: string, release: Parameters<typeof siteFooter>[0] & Parameters<typeof siteHeader>[0] = { name: releaseName, citation: '', license: '' }): string {
  const sections = Object.entries(api.paths)
    .map(([path, { get }], i) => {
      const params = get.parameters
        .map((p) => `<tr><th scope="row"><code>${escapeHtml(p.name)}</code></th><td>${p.in}${p.required ? ', required' : ''}</td><td>${escapeHtml(p.description)}</td><td>${values(p)}</td></tr>`)
        .join('');
      const responses = Object.entries(get.responses).map(([status, r]) => `<dt>${status}</dt><dd>${escapeHtml(r.description)}</dd>`).join('');
      const id = `endpoint-${i}`;
      return `<section aria-labelledby="${id}">
<h2 id="${id}"><code>GET ${escapeHtml(path)}</code> – ${escapeHtml(get.summary)}</h2>
<p>${escapeHtml(get.description)}</p>
${get.example ? `<p>Example: <a href="${escapeHtml(get.example)}"><code>${escapeHtml(get.example)}</code></a></p>` : ''}
${params ? `<div class="scroll" tabindex="0" role="region" aria-label="Parameters of ${escapeHtml(path)}"><table><caption>Parameters</caption><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">meaning</th><th scope="col">values</th></tr></thead><tbody>${params}</tbody></table></div>` : ''}
<dl class="annotations">${responses}</dl>
</section>`;
    })
    .join('\n');
  // The server is the build's base URL: its path prefixes every href.
  const server = api.servers[0]?.url;
  return rebase(`${htmlHead(`API documentation – ${releaseName} (JASPAR mirror)`)}<body>
${siteHeader(release, `<a href="${ROOT_DIR}?format=api">API root</a>`)}
<main id="main" tabindex="-1">
<h1>${escapeHtml(api.info.title)}</h1>
<p>${escapeHtml(api.info.description)}</p>
<p>Machine-readable: <a href="${OPENAPI_JSON}">OpenAPI (JSON)</a> · <a href="${OPENAPI_YAML}">OpenAPI (YAML)</a>. Server: <code>${escapeHtml(api.servers[0]?.url ?? '')}</code>.</p>
${sections}
</main>
${siteFooter(release)}
</body>
</html>
`, server ? basePathOf(server) : '');
}
