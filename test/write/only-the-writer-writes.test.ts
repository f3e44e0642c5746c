// Only the writer writes (issue 13 §1): no module of the generator outside
// generator/write/ creates, replaces or removes files. The render workers
// return bytes; the mirror step produces the archive's bytes and the writer
// writes them. This reads every source file and looks for Node's file
// writing calls (imported from node:fs or node:fs/promises) and for files
// opened to write.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/paths.ts';

const WRITING = ['writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'rename', 'renameSync', 'rm', 'rmSync', 'rmdir', 'rmdirSync',
  'mkdir', 'mkdirSync', 'mkdtemp', 'mkdtempSync', 'unlink', 'unlinkSync', 'copyFile', 'copyFileSync', 'cp', 'cpSync', 'symlink', 'symlinkSync',
  'link', 'linkSync', 'truncate', 'truncateSync', 'ftruncateSync', 'createWriteStream', 'write', 'writeSync', 'writev', 'writevSync', 'chmod', 'chmodSync', 'utimes', 'utimesSync'];

/** Not part of the build: a developer tool that regenerates a committed source file (logos/glyphs.ts from a font). */
// Not the build: a developer tool (glyph outlines), and the temporary project
// folders `npm run serve` and the tests give netlify dev and wrangler dev
// (never inside a site: generator/edge/hosts/projects.ts), and the generator's
// bundle the CLI starts from, in the project's .cache/generator/ (generator/start.mjs).
const ALLOWED = new Set(['generator/logos/glyphs/extract.ts', 'generator/edge/hosts/projects.ts', 'generator/start.mjs']);

/** Every call of a file-writing function of node:fs in a source text, as "name (line n)". */
export function writingCalls(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const lineOf = (index: number) => code.slice(0, index).split('\n').length;
  // Names imported from node:fs / fs/promises (renamed imports too), and namespace imports used as fs.name(…).
  for (const m of code.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"](?:node:)?fs(?:\/promises)?['"]/g)) {
    for (const spec of m[1].split(',')) {
      const [name, alias] = spec.trim().split(/\s+as\s+/);
      if (!WRITING.includes(name)) continue;
      const local = alias ?? name;
      for (const call of code.matchAll(new RegExp(`(?<![\\w.$])${local}\\s*\\(`, 'g'))) found.push(`${name} (line ${lineOf(call.index!)})`);
    }
  }
  for (const m of code.matchAll(/import\s+(?:\*\s+as\s+)?(\w+)\s+from\s*['"](?:node:)?fs(?:\/promises)?['"]/g)) {
    for (const call of code.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)\\s*\\(`, 'g'))) if (WRITING.includes(call[1])) found.push(`${call[1]} (line ${lineOf(call.index!)})`);
  }
  // Files opened to write: a flag string with w or a, or O_WRONLY / O_RDWR / O_CREAT.
  for (const call of code.matchAll(/\bopen(?:Sync)?\s*\(([^;]*?)\)\s*[;,)]/g)) {
    if (/['"`][rs]?\+|['"`][wa]x?\+?['"`]|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC/.test(call[1])) found.push(`open to write (line ${lineOf(call.index!)})`);
  }
  return found;
}

describe('only the writer writes', () => {
  const files = fg.sync(['generator/**/*.{ts,mjs,js}'], { cwd: PROJECT_ROOT }).sort();

  it('the check finds what it looks for', () => {
    expect(writingCalls("import { rmSync as gone, readFileSync } from 'node:fs';\nreadFileSync('x');\ngone('y');")).toEqual(['rmSync (line 3)']);
    expect(writingCalls("import fs from 'node:fs/promises';\nawait fs.writeFile('x', '');")).toEqual(['writeFile (line 2)']);
    expect(writingCalls("import { openSync, constants } from 'node:fs';\nopenSync(f, constants.O_WRONLY | constants.O_CREAT);")).toEqual(['open to write (line 2)']);
    expect(writingCalls("import { openSync } from 'node:fs';\nopenSync(f, 'w');\nopenSync(g, 'r');")).toEqual(['open to write (line 2)']);
    expect(writingCalls("import { readFileSync } from 'node:fs';\n// rmSync(x)\nconst s = 'writeFileSync(';")).toEqual([]);
  });

  it('the generator has files to check, the writer among them', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(writingCalls(readFileSync(path.join(PROJECT_ROOT, 'generator/write/files.ts'), 'utf8')).length).toBeGreaterThan(0);
  });

  it('no module outside generator/write/ writes, renames or removes files', () => {
    const offenders = files
      .filter((f) => !f.startsWith('generator/write/') && !ALLOWED.has(f))
      .flatMap((f) => writingCalls(readFileSync(path.join(PROJECT_ROOT, f), 'utf8')).map((call) => `${f}: ${call}`));
    expect(offenders).toEqual([]);
  });

  it('the render pipeline and the mirror step do not use the writer: they return bytes to it', () => {
    const users = files
      .filter((f) => f.startsWith('generator/pipeline/') || f.startsWith('generator/mirror/'))
      .filter((f) => /from\s*['"]\.\.\/write\//.test(readFileSync(path.join(PROJECT_ROOT, f), 'utf8')));
    expect(users).toEqual([]);
  });
});
