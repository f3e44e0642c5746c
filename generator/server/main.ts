// The entry of serve.mjs (bundle.ts bundles it into the site's root):
//
//   node serve.mjs [--port P] [--host H] [--dir DIR]
//
// Serves the site the file lies in (or DIR) on http://H:P/ (default
// 127.0.0.1:8080) with the whole API (http.ts); stops gracefully on SIGTERM
// or SIGINT (Ctrl-C). Needs Node 20 or later and nothing else.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMirrorServer } from './http.ts';

const USAGE = 'usage: node serve.mjs [--port P] [--host H] [--dir DIR]';

async function main(): Promise<number> {
  let values: { port?: string; host?: string; dir?: string };
  try {
    ({ values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, dir: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`serve: ${(error as Error).message} (fix: ${USAGE})\n`);
    return 2;
  }
  const port = Number(values.port ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`serve: --port must be a port number (got "${values.port}") (fix: ${USAGE})\n`);
    return 2;
  }
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 20) {
    process.stderr.write(`serve: Node ${process.versions.node} is too old (fix: Node 20 or later)\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  // Beside this file when bundled as serve.mjs at the site's root.
  const dir = path.resolve(values.dir ?? path.dirname(fileURLToPath(import.meta.url)));
  let mirror: Awaited<ReturnType<typeof createMirrorServer>>;
  try {
    mirror = await createMirrorServer({ dir });
    const address = await mirror.listen(port, host);
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    process.stdout.write(`serve: the JASPAR API mirror in ${dir} on http://${shown}:${address.port}/ (Ctrl-C stops it)\n`);
  } catch (error) {
    process.stderr.write(`serve: ${(error as Error).message}\n`);
    return 1;
  }
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`serve: ${signal}: finishing the answers in flight\n`);
      mirror.stop().then(() => resolve(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

main().then((code) => {
  process.exitCode = code;
  if (code !== 0) process.exit(code);
});
