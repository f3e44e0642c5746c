// The project folders the two edge engines run in (Node side): `netlify dev`
// reads netlify.toml, its import map and netlify/edge-functions/ from the
// folder it runs in; `wrangler dev` reads wrangler.jsonc and the Worker
// entry. Each run gets a fresh folder holding a copy of the repository's host
// configuration, so that runs in parallel do not share the engines' state
// folders (.netlify/, .wrangler/) and nothing is written into the
// repository. Used by `npm run serve -- --server netlify|cloudflare`
// (scripts/serve.ts) and the engine tests (test/support/edge-servers.ts).
// The handler is the product's (netlify/edge-functions/, cloudflare/worker.ts)
// unless `handler` names another module of the project exporting handle()
// with the same signature (the tests' double).
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NETLIFY_DEV_DOTENV, PROJECT_ROOT } from './local-engines.ts';

/** A module exporting default = adapter(handle), with handle from handlerModule; imports as written (plain paths: the engines' bundlers take no file: URLs). */
function entrySource(adapterImport: string, adapter: string, handlerImport: string): string {
  return [
    `import { handle } from ${JSON.stringify(handlerImport)};`,
    `import { ${adapter} } from ${JSON.stringify(adapterImport)};`,
    `export default ${adapter}(handle);`,
    '',
  ].join('\n');
}

/** The handler module as a path inside the repository ('test/edge/double.ts'). */
function insideProject(handler: string): string {
  const relative = path.relative(PROJECT_ROOT, path.resolve(handler));
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`handler ${handler} is outside the project`);
  return relative.split(path.sep).join('/');
}

/** The project folder `netlify dev` runs in: the repository's netlify.toml, import map and edge functions. */
export function netlifyProject(dir: string, handler: string | undefined): void {
  copyFileSync(path.join(PROJECT_ROOT, 'netlify.toml'), path.join(dir, 'netlify.toml'));
  writeFileSync(path.join(dir, '.env'), NETLIFY_DEV_DOTENV);
  // The import map's values are relative to it (../node_modules/…), the product entry imports ../../generator.
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  // The edge bundler of `netlify dev` takes relative imports only: the project's folders are linked in.
  for (const folder of ['generator', 'test']) symlinkSync(path.join(PROJECT_ROOT, folder), path.join(dir, folder));
  mkdirSync(path.join(dir, 'netlify'));
  copyFileSync(path.join(PROJECT_ROOT, 'netlify/import_map.json'), path.join(dir, 'netlify/import_map.json'));
  if (handler === undefined) {
    symlinkSync(path.join(PROJECT_ROOT, 'netlify/edge-functions'), path.join(dir, 'netlify/edge-functions'));
  } else {
    mkdirSync(path.join(dir, 'netlify/edge-functions'));
    writeFileSync(path.join(dir, 'netlify/edge-functions/jaspar.ts'), entrySource('../../generator/edge/hosts/netlify.ts', 'netlifyEdgeFunction', `../../${insideProject(handler)}`));
  }
}

/** The project folder `wrangler dev` runs in: wrangler.jsonc and the Worker entry; returns the entry's path. */
export function wranglerProject(dir: string, handler: string | undefined): string {
  copyFileSync(path.join(PROJECT_ROOT, 'wrangler.jsonc'), path.join(dir, 'wrangler.jsonc'));
  if (handler === undefined) return path.join(PROJECT_ROOT, readWranglerMain());
  const entry = path.join(dir, 'worker.ts');
  writeFileSync(entry, entrySource(path.join(PROJECT_ROOT, 'generator/edge/hosts/cloudflare.ts'), 'cloudflareWorker', path.join(PROJECT_ROOT, insideProject(handler))));
  return entry;
}

function readWranglerMain(): string {
  const text = readFileSync(path.join(PROJECT_ROOT, 'wrangler.jsonc'), 'utf8');
  const match = /"main"\s*:\s*"([^"]+)"/.exec(text);
  if (!match) throw new Error('wrangler.jsonc: no "main"');
  return match[1];
}
