// A route pattern compiled once, as Astro's route manifest does
// (core/routing/manifest/create.ts: the segments parsed once, then the
// pattern and the generator kept on the same route): the URL builder, the
// matcher and the templates the host printers print are all read off the
// same parts, so none of them can spell the URL differently.
//
// Pattern language, the one of routes/table.ts:
//   {name}          a parameter, matched by the pattern given for it;
//   {shard}{name}   the shard folder of the id that follows ("MA/" when the
//                   layout puts id folders in shards cut after two
//                   characters, nothing when flat); {shard:logos} the same
//                   for the logos, which the layout shards apart (shard.ts);
//   [ … ]           an optional part, written when all its parameters have a
//                   value (a list view's filter and page size folders).
// A leaf module (it imports only a type), so that paths.ts can build the list
// folders from it without an import cycle through the format registry.
import type { Layout } from './shard.ts';

export type Part =
  | { text: string }
  | { param: string; pattern: string }
  /** The shard folder ("MA/") of the parameter that follows it, when the layout shards `by`. */
  | { shard: string; by: 'idFolders' | 'logos' }
  | { optional: Part[] };

/** A path template as the host printers take it: literal text and named slots. */
export type Template = (string | { slot: string })[];

/** Variants of a route's regular expression, for a matcher that takes more than the paths the route builds. */
export interface RegexOptions {
  /** A folder also without its trailing slash (as Netlify's rules and the service's redirect take it). */
  optionalSlash?: boolean;
  /** Other patterns for some parameters (a handler that checks the value itself takes any segment). */
  params?: Readonly<Record<string, string>>;
  /** DRF's format suffix: the path without its trailing slash, a dot, this pattern (the format names) as the group "suffix", an optional slash; `slashBefore`: a slash may come before the dot too. */
  suffix?: { pattern: string; slashBefore?: boolean };
  /** The path only as the start of longer ones: the rest (from its "/") as the group "rest", or nothing. */
  prefix?: boolean;
}

export interface CompiledRoute {
  /** The pattern as written ("/api/v1/matrix/{shard}{matrix_id}/"). */
  source: string;
  parts: readonly Part[];
  /** Parameter names, in the order they appear. */
  params: readonly string[];
  /** The path of these values; an optional part is left out when a value of it is undefined. A pattern with {shard} needs the layout. */
  build(values: Readonly<Record<string, string | number | undefined>>, layout?: Layout): string;
  /** The regular expression of the paths it builds in this layout, anchored, one named group per parameter (shards unnamed). */
  regex(layout?: Layout, options?: RegexOptions): RegExp;
  /** The values of a path it builds, or null (a path that matches the regular expression but is not the one its values build, too). */
  match(path: string, layout?: Layout): Record<string, string> | null;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Parses a pattern into parts; `patterns` gives each parameter's regular expression (default: one path segment). */
export function parsePattern(source: string, patterns: Readonly<Record<string, string>> = {}): Part[] {
  let at = 0;
  const parse = (inside: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text !== '') parts.push({ text });
      text = '';
    };
    while (at < source.length) {
      const c = source[at];
      if (c === '[') {
        if (inside) throw new Error(`route pattern "${source}": optional parts do not nest`);
        flush();
        at++;
        parts.push({ optional: parse(true) });
      } else if (c === ']') {
        if (!inside) throw new Error(`route pattern "${source}": "]" without "["`);
        at++;
        flush();
        return parts;
      } else if (c === '{') {
        const end = source.indexOf('}', at);
        if (end < 0) throw new Error(`route pattern "${source}": "{" without "}"`);
        const name = source.slice(at + 1, end);
        if (!/^\w+(:logos)?$/.test(name)) throw new Error(`route pattern "${source}": parameter "{${name}}" is not a name`);
        flush();
        at = end + 1;
        if (name === 'shard' || name === 'shard:logos') {
          const next = /^\{(\w+)\}/.exec(source.slice(at));
          if (!next) throw new Error(`route pattern "${source}": {${name}} must stand before the id it is cut from`);
          parts.push({ shard: next[1], by: name === 'shard' ? 'idFolders' : 'logos' });
        } else {
          parts.push({ param: name, pattern: patterns[name] ?? '[^/]+' });
        }
      } else {
        text += c;
        at++;
      }
    }
    if (inside) throw new Error(`route pattern "${source}": "[" without "]"`);
    flush();
    return parts;
  };
  return parse(false);
}

const paramsOf = (parts: readonly Part[]): string[] => parts.flatMap((p) => ('param' in p ? [p.param] : 'optional' in p ? paramsOf(p.optional) : []));

/** Compiles a pattern once: its builder, matcher and template read the same parts. */
export function compileRoute(source: string, patterns: Readonly<Record<string, string>> = {}): CompiledRoute {
  const parts = parsePattern(source, patterns);
  const params = paramsOf(parts);
  const needsLayout = (layout: Layout | undefined): Layout => {
    if (!layout) throw new Error(`route "${source}" is an output folder in shard folders; pass the site's layout`);
    return layout;
  };
  // Each optional part's parameters, found once: every href and output path of the site is built here (1.4 s of the
  // 2024 release's 15 s of rendering when found on each call).
  const optionalParams = new Map<Part, string[]>();
  const findOptional = (list: readonly Part[]): void => {
    for (const p of list) {
      if (!('optional' in p)) continue;
      optionalParams.set(p, paramsOf(p.optional));
      findOptional(p.optional);
    }
  };
  findOptional(parts);
  const write = (list: readonly Part[], values: Readonly<Record<string, string | number | undefined>>, layout: Layout | undefined): string => {
    let out = '';
    for (const p of list) {
      if ('text' in p) out += p.text;
      else if ('param' in p) {
        const v = values[p.param];
        if (v === undefined) throw new Error(`route "${source}": no value for {${p.param}}`);
        out += String(v);
      } else if ('shard' in p) {
        const l = needsLayout(layout);
        if (l[p.by]) out += `${String(values[p.shard]).slice(0, l.shard)}/`;
      } else if (optionalParams.get(p)!.every((name) => values[name] !== undefined)) out += write(p.optional, values, layout);
    }
    return out;
  };
  const regexes = new Map<string, RegExp>();
  const regex = (layout?: Layout, options: RegexOptions = {}): RegExp => {
    const key = `${layout ? `${layout.idFolders}:${layout.logos}:${layout.shard}` : '-'}:${JSON.stringify(options)}`;
    let found = regexes.get(key);
    if (found) return found;
    const source_ = (list: readonly Part[]): string => list.map((p) => {
      if ('text' in p) return escape(p.text);
      if ('param' in p) return `(?<${p.param}>${options.params?.[p.param] ?? p.pattern})`;
      if ('shard' in p) return needsLayout(layout)[p.by] ? `[^/]{${layout!.shard}}/` : '';
      return `(?:${source_(p.optional)})?`;
    }).join('');
    let body = source_(parts);
    if (options.suffix) body = `${body.replace(/\/$/, '')}${options.suffix.slashBefore ? '/?' : ''}\\.(?<suffix>${options.suffix.pattern})/?`;
    else if (options.optionalSlash && body.endsWith('/')) body = `${body.slice(0, -1)}/?`;
    if (options.prefix) body = `${body}(?<rest>/.*)?`;
    found = new RegExp(`^${body}$`);
    regexes.set(key, found);
    return found;
  };
  return {
    source,
    parts,
    params,
    build: (values, layout) => write(parts, values, layout),
    regex,
    match(path, layout) {
      const m = regex(layout).exec(path);
      if (!m) return null;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(m.groups ?? {})) if (v !== undefined) out[k] = v;
      // Only the path these values build: a shard folder must be the id's own ("XX/MA0004.1/" is no folder of MA0004.1).
      return write(parts, out, layout) === path ? out : null;
    },
  };
}

/**
 * The pattern as a template for the host printers, in a layout: text and
 * slots, a shard folder as the slot "shard" followed by "/" (nothing when
 * the layout is flat); `slots` renames parameters (matrix_id → id). Optional
 * parts are refused: a printer composes those from `optionalPart`.
 */
export function templateOf(route: CompiledRoute, layout: Layout, slots: Readonly<Record<string, string>> = {}): Template {
  const out: Template = [];
  const text = (t: string) => {
    if (typeof out[out.length - 1] === 'string') out[out.length - 1] += t;
    else out.push(t);
  };
  for (const p of route.parts) {
    if ('text' in p) text(p.text);
    else if ('param' in p) out.push({ slot: slots[p.param] ?? p.param });
    else if ('shard' in p) {
      if (layout[p.by]) {
        out.push({ slot: 'shard' });
        text('/');
      }
    } else throw new Error(`route "${route.source}": an optional part has no single template`);
  }
  return out;
}

/**
 * The literal text right around a parameter, within its optional part if it
 * has one: ["collection/", "/"] for {collection} of a list view, ["page/", "/"]
 * for {page}. What a printer that composes a folder from pieces needs.
 */
export function partAround(route: CompiledRoute, param: string): [string, string] {
  const find = (list: readonly Part[]): [string, string] | null => {
    for (let i = 0; i < list.length; i++) {
      const p = list[i];
      if ('optional' in p) {
        const inner = find(p.optional);
        if (inner) return inner;
      } else if ('param' in p && p.param === param) {
        const textOf = (q: Part | undefined) => (q && 'text' in q ? q.text : '');
        return [textOf(list[i - 1]), textOf(list[i + 1])];
      }
    }
    return null;
  };
  const found = find(route.parts);
  if (!found) throw new Error(`route "${route.source}" has no {${param}}`);
  return found;
}
