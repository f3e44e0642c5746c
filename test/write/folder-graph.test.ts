// The folders of generator/ as layers (issue 21): a module imports only from
// its own folder, a folder of its layer, or a lower layer, never upward, so
// that the folder list reads as the pipeline (STYLE.md: load → plan → render
// → write) and a lower folder can be read, tested and bundled (the edge
// handler for Deno and workerd) without what sits above it. Every import is
// counted, types too: a type from above still ties a folder to it.
//
// The layers, decided from the code:
//  - dataset: reading a release, its types, and how Python prints numbers
//    (the readers check counts with it);
//  - logos, formats, routes: the building blocks. One layer: routes name the
//    files of each format (formats/registry.ts), and the page for people
//    (formats/api.ts) links the site's pages by routes/paths.ts, a leaf;
//  - plan: what the site holds, from the release;
//  - docs, hosting: the documentation, and the host rules printed from the routes;
//  - edge: the request handler (imports the host rules' headers);
//  - server: the Node server around the handler;
//  - mirror, pages: the offline mirror (its README names the server and the
//    host configs) and the pages for people (the downloads page lists the mirror);
//  - pipeline, write: rendering on workers, writing;
//  - build.ts, cli.ts;
//  - start.mjs: how npm run build starts cli.ts (from a bundle of the generator).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';

/** Lowest first. Folders of one layer may import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['assets'],
  ['dataset'],
  ['logos', 'formats', 'routes'],
  ['plan'],
  ['docs', 'hosting'],
  ['edge'],
  ['server'],
  ['mirror', 'pages'],
  ['pipeline', 'write'],
  ['build.ts', 'cli.ts'],
  ['start.mjs'],
];

/** The folder of generator/ a file lies in ("edge" for generator/edge/hosts/x.ts), or the file itself at the top ("build.ts"). */
export function folderOf(file: string): string | null {
  const parts = path.relative(path.join(PROJECT_ROOT, 'generator'), file).split(path.sep);
  return parts[0] === '..' || parts[0] === '' ? null : parts[0];
}

/** The relative module specifiers a source imports or re-exports, with their lines: static, type-only and dynamic. */
export function importsOf(source: string): { specifier: string; line: number }[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: { specifier: string; line: number }[] = [];
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  for (const m of code.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g)) found.push({ specifier: m[1], line: lineOf(m.index!) });
  for (const m of code.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) found.push({ specifier: m[1], line: lineOf(m.index!) });
  return found;
}

/** Every import that goes upward (or to a folder no layer names), as "from:line imports to (folder above)". */
export function upwardImports(files: { file: string; source: string }[], layers: readonly (readonly string[])[] = LAYERS): string[] {
  const layerOf = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));
  const problems: string[] = [];
  for (const { file, source } of files) {
    const from = folderOf(file);
    if (from === null) continue;
    const fromLayer = layerOf.get(from);
    const shown = path.relative(PROJECT_ROOT, file);
    if (fromLayer === undefined) {
      problems.push(`${shown}: generator/${from} is in no layer (fix: add it to LAYERS in test/write/folder-graph.test.ts where its imports put it)`);
      continue;
    }
    for (const { specifier, line } of importsOf(source)) {
      const target = path.resolve(path.dirname(file), specifier);
      const to = folderOf(target);
      if (to === null || to === from) continue;
      const toLayer = layerOf.get(to);
      if (toLayer === undefined || toLayer > fromLayer) {
        problems.push(`${shown}:${line}: imports ${path.relative(PROJECT_ROOT, target)}, ${toLayer === undefined ? 'in no layer' : `in generator/${to}, a layer above generator/${from}`} (fix: move the shared part down, or the importing module up)`);
      }
    }
  }
  return problems;
}

describe('the folder graph of generator/', () => {
  const files = fg.sync(['generator/**/*.{ts,mjs,js}'], { cwd: PROJECT_ROOT, absolute: true }).sort();

  it('the check finds what it looks for', () => {
    expect(importsOf("import { a } from '../x/a.ts';\nimport type { B } from './b.ts';\nexport { c } from '../../c.ts';\nexport * from './d.ts';\nconst e = await import('../e.ts');\nimport 'node:fs';\nimport yaml from 'js-yaml';\n// import { f } from '../f.ts';\nconst s = \"from '../g.ts'\";"))
      .toEqual([{ specifier: '../x/a.ts', line: 1 }, { specifier: './b.ts', line: 2 }, { specifier: '../../c.ts', line: 3 }, { specifier: './d.ts', line: 4 }, { specifier: '../e.ts', line: 5 }]);
    expect(importsOf("import {\n  a,\n  b,\n} from '../routes/urls.ts';")).toEqual([{ specifier: '../routes/urls.ts', line: 1 }]);
    const at = (p: string) => path.join(PROJECT_ROOT, 'generator', p);
    const layers = [['dataset'], ['formats'], ['build.ts']];
    expect(upwardImports([
      { file: at('formats/a.ts'), source: "import type { M } from '../dataset/types.ts';\nimport { b } from './b.ts';" },
      { file: at('build.ts'), source: "import { a } from './formats/a.ts';" },
    ], layers)).toEqual([]);
    expect(upwardImports([{ file: at('dataset/x.ts'), source: "\nimport { pyFixed } from '../formats/numbers.ts';" }], layers))
      .toEqual(['generator/dataset/x.ts:2: imports generator/formats/numbers.ts, in generator/formats, a layer above generator/dataset (fix: move the shared part down, or the importing module up)']);
    expect(upwardImports([{ file: at('extra/x.ts'), source: '' }], layers)[0]).toContain('generator/extra is in no layer');
  });

  it('every folder of generator/ is in a layer, and every layer names folders that exist', () => {
    const folders = new Set(files.map(folderOf));
    expect([...folders].filter((f) => !LAYERS.some((l) => l.includes(f!)))).toEqual([]);
    expect(LAYERS.flat().filter((f) => !folders.has(f))).toEqual([]);
  });

  it('no module imports from a layer above its own', () => {
    const problems = upwardImports(files.map((file) => ({ file, source: readFileSync(file, 'utf8') })));
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
