// Content negotiation as Django REST Framework's DefaultContentNegotiation
// does it (checked against the DRF oracle, test/oracle/drf):
//  - a format suffix (/api/v1/matrix/MA0139.1.jaspar) wins over ?format=,
//    which wins over Accept: it narrows the renderers to that format, and an
//    unknown one is 404 "Not found." (formats are case-sensitive);
//  - the Accept header (default */*) is then matched against the remaining
//    renderers, most specific media types first (type/subtype with
//    parameters other than q, type/subtype, type/*, */*), renderers in the
//    service's order; q-values are ignored, as DRF ignores them;
//  - nothing matches: 406 "Could not satisfy the request Accept header.",
//    also when ?format= names a format the Accept header excludes.
import type { FormatId } from '../formats/registry.ts';

/** The service's renderers in its order, with the media types it matches Accept against. */
export const SERVICE_RENDERERS: readonly { format: FormatId; mediaType: string }[] = [
  { format: 'json', mediaType: 'application/json' },
  { format: 'jsonp', mediaType: 'application/javascript' },
  { format: 'jaspar', mediaType: 'text/jaspar' },
  { format: 'meme', mediaType: 'text/meme' },
  { format: 'transfac', mediaType: 'text/transfac' },
  { format: 'pfm', mediaType: 'text/pfm' },
  { format: 'yaml', mediaType: 'application/yaml' },
  { format: 'bed', mediaType: 'text/bed' },
  { format: 'api', mediaType: 'text/html' },
];

/** Longest Accept header read; a longer one is refused. */
export const MAX_ACCEPT_LENGTH = 1024;

export type Negotiated =
  | { ok: true; format: FormatId; /** The accepted media type carries parameters other than q (DRF would pass them on, e.g. indent=). */ withParams: boolean }
  | { ok: false; status: 404 | 406 };

interface MediaType {
  main: string;
  sub: string;
  params: Map<string, string>;
}

function parseMediaType(text: string): MediaType {
  // DRF's parse_header lower-cases the type and the parameter names.
  const [full, ...rest] = text.split(';');
  const type = full.trim().toLowerCase();
  const slash = type.indexOf('/');
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue; // parse_header skips a parameter without a value
    params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim());
  }
  return { main: slash < 0 ? type : type.slice(0, slash), sub: slash < 0 ? '' : type.slice(slash + 1), params };
}

function precedence(m: MediaType): number {
  if (m.main === '*') return 0;
  if (m.sub === '*') return 1;
  if (m.params.size === 0 || (m.params.size === 1 && m.params.has('q'))) return 2;
  return 3;
}

/** DRF's _MediaType.match: does the renderer's type (no parameters) satisfy the accepted one? */
function satisfies(renderer: MediaType, accepted: MediaType): boolean {
  if (renderer.sub !== '*' && accepted.sub !== '*' && accepted.sub !== renderer.sub) return false;
  if (renderer.main !== '*' && accepted.main !== '*' && accepted.main !== renderer.main) return false;
  return true;
}

/** `formats`: the resource's own renderers (an index list has no text formats), in the service's order. */
export function negotiate(format: string | undefined, accept: string | null, formats?: readonly FormatId[]): Negotiated {
  let renderers = formats ? SERVICE_RENDERERS.filter((r) => formats.includes(r.format)) : SERVICE_RENDERERS;
  if (format) {
    renderers = renderers.filter((r) => r.format === format);
    if (renderers.length === 0) return { ok: false, status: 404 };
  }
  const accepted = (accept ?? '*/*').split(',').map((t) => t.trim()).map(parseMediaType);
  for (let level = 3; level >= 0; level--) {
    const set = accepted.filter((m) => precedence(m) === level);
    if (set.length === 0) continue;
    for (const renderer of renderers) {
      const own = parseMediaType(renderer.mediaType);
      for (const m of set) if (satisfies(own, m)) return { ok: true, format: renderer.format, withParams: level === 3 };
    }
  }
  return { ok: false, status: 406 };
}
