// npm run serve -- [--server node|netlify|cloudflare|nginx|caddy|apache|http-server] [--dir DIR] [--port P] [--host H] [--edge on|off] [--with-node]
//
// Without --server: the Node server the build writes into the site
// (serve.mjs, generator/server/): the whole API, as `node serve.mjs` runs it
// in an unpacked mirror. --with-node (nginx, caddy, apache): the Node server
// too, on a free loopback port, behind the server, which passes it what its
// files cannot answer (generator/hosting/node-proxy.ts): the whole API.
//
// Starts a real server in the foreground over a built site (or an unpacked
// mirror) with the configuration the build wrote into it (_hosting/,
// _redirects, _headers): the real API's query URLs, Content-Types, CORS and
// security headers, as far as that server can. netlify runs `netlify dev`
// with the edge handler (netlify/edge-functions/; --edge off: the files and
// rules alone), cloudflare runs `wrangler dev` with the Worker
// (cloudflare/worker.ts) in front of the site as its assets, both offline,
// from a project folder set up by generator/edge/hosts/projects.ts (as the
// engine tests do). Installs nothing: a missing server is named with the command that installs it. Everything the server
// needs besides the site (its main config, pid file, temp folders) goes to a
// temporary folder, removed when the server stops (Ctrl-C). The tests start
// servers through serverCommand() below, so users and tests run the same thing.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { INDEX_PATH } from '../generator/edge/indexes.ts';
import { DENO_BIN_DIR, NETLIFY_BOOTSTRAP, netlifyDevArgs, netlifyDevEnv, staticServerPort, wranglerDevArgs, wranglerDevEnv } from '../generator/edge/hosts/local-engines.ts';
import { netlifyProject, wranglerProject } from '../generator/edge/hosts/projects.ts';
import { HOSTING_FILES } from '../generator/hosting/servers.ts';
import { SERVER_FILE } from '../generator/server/bundle.ts';

export const SERVERS = ['node', 'netlify', 'cloudflare', 'nginx', 'caddy', 'apache', 'http-server'] as const;
export type ServerName = (typeof SERVERS)[number];

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE_BIN = path.join(PROJECT_ROOT, 'node_modules/.bin');

interface Binary {
  /** Names to look for on PATH (and in /usr/sbin, where Debian puts servers). */
  names: string[];
  install: string;
}

const BINARIES: Record<ServerName, Binary> = {
  node: { names: [process.execPath], install: 'Node 20 or later (https://nodejs.org/)' },
  nginx: { names: ['nginx'], install: 'sudo apt-get install --no-install-recommends nginx-light' },
  caddy: { names: ['caddy'], install: 'sudo apt-get install --no-install-recommends caddy' },
  apache: { names: ['apache2', 'httpd'], install: 'sudo apt-get install --no-install-recommends apache2' },
  netlify: { names: [path.join(NODE_BIN, 'netlify')], install: 'npm ci (netlify-cli is a devDependency of this project)' },
  cloudflare: { names: [path.join(NODE_BIN, 'wrangler')], install: 'npm ci (wrangler is a devDependency of this project)' },
  'http-server': { names: [path.join(NODE_BIN, 'http-server')], install: 'npm ci (http-server is a devDependency of this project)' },
};

/** The executable of a server, or undefined when it is not installed. */
export function findBinary(server: ServerName, dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin']): string | undefined {
  for (const name of BINARIES[server].names) {
    const candidates = path.isAbsolute(name) ? [name] : dirs.filter(Boolean).map((d) => path.join(d, name));
    for (const file of candidates) {
      try {
        accessSync(file, constants.X_OK);
        if (statSync(file).isFile()) return file;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export const installHint = (server: ServerName) => BINARIES[server].install;

export interface ServeOptions {
  /** The built site or unpacked mirror. */
  dir: string;
  port: number;
  /** Address to listen on; 127.0.0.1 unless asked otherwise. */
  host: string;
  /** netlify: with the edge handler (what `npm run serve` does unless --edge off), else the files and rules alone. */
  edge?: boolean;
  /** netlify: the port of netlify dev's internal static server (default: 3999 if free). */
  staticPort?: number;
  /** nginx, caddy, apache: the port of the Node server behind them on 127.0.0.1 (--with-node). */
  node?: number;
}

/** What `netlify dev` needs to run the edge function offline besides netlify-cli; it would download Deno itself. */
export function netlifyEdgeMissing(): string[] {
  const missing: string[] = [];
  if (!existsSync(path.join(DENO_BIN_DIR, 'deno'))) missing.push(`Deno from npm (${path.relative(PROJECT_ROOT, path.join(DENO_BIN_DIR, 'deno'))}, the deno devDependency; Linux x64 only)`);
  if (!existsSync(NETLIFY_BOOTSTRAP)) missing.push(`Netlify's edge bootstrap (${path.relative(PROJECT_ROOT, NETLIFY_BOOTSTRAP)}, a dependency of netlify-cli)`);
  return missing;
}

export interface ServerCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Temporary folder (main config, pid, temp files; the server's working directory), removed by cleanup(). */
  tmp: string;
  /** --with-node: the Node server to start first, behind the server. */
  sidecar?: { command: string; args: string[] };
  cleanup(): void;
}

/** nginx's main config around the site's two snippets; everything writable in tmp. */
export function nginxMainConf(o: ServeOptions, tmp: string): string {
  const site = path.resolve(o.dir);
  return `# Written by scripts/serve.ts around the site's own ${HOSTING_FILES.nginxHttp} and ${HOSTING_FILES.nginxServer}.
daemon off;
master_process off;
worker_processes 1;
pid ${tmp}/nginx.pid;
error_log stderr warn;
events { worker_connections 512; }
http {
  client_body_temp_path ${tmp}/client_body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  access_log off;
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  include ${site}/${HOSTING_FILES.nginxHttp};
  server {
    listen ${o.host}:${o.port};
    root ${site};
${o.node === undefined ? '' : `    include ${site}/${HOSTING_FILES.nginxNode};
    set $jaspar_node 127.0.0.1:${o.node};
`}    include ${site}/${HOSTING_FILES.nginxServer};
  }
}
`;
}

/** Apache's main config (the modules the site's apache.conf needs) around it; everything writable in tmp. */
export function apacheMainConf(o: ServeOptions, tmp: string): string {
  const site = path.resolve(o.dir);
  const modules = ['mpm_event', 'authz_core', 'dir', 'mime', 'rewrite', 'headers', 'setenvif', 'env', 'filter', 'deflate', 'brotli', ...(o.node === undefined ? [] : ['proxy', 'proxy_http'])];
  return `# Written by scripts/serve.ts around the site's own ${HOSTING_FILES.apache}.
ServerRoot /usr/lib/apache2
${modules.map((m) => `LoadModule ${m}_module modules/mod_${m}.so`).join('\n')}
ServerName 127.0.0.1
Listen ${o.host}:${o.port}
PidFile ${tmp}/httpd.pid
DefaultRuntimeDir ${tmp}
Mutex file:${tmp} default
# A pipe: /dev/stderr cannot be opened when stderr is a socket (as under a test runner); cat writes to the terminal.
ErrorLog "|/bin/cat"
LogLevel warn
TypesConfig /etc/mime.types
StartServers 1
ServerLimit 1
ThreadsPerChild 32
MaxRequestWorkers 32
MinSpareThreads 1
MaxSpareThreads 64
${process.getuid?.() === 0 ? '# Started as root, Apache serves as this user, who must be able to read the site.\nUser nobody\nGroup nogroup\n' : ''}DocumentRoot "${site}"
Define JASPAR_SITE "${site}"
<Directory />
  AllowOverride None
  Require all denied
</Directory>
<Directory "${site}">
  Options -Indexes +FollowSymLinks
  Require all granted
</Directory>
${o.node === undefined ? '' : `Define JASPAR_NODE 127.0.0.1:${o.node}
Include "${site}/${HOSTING_FILES.apacheNode}"
`}Include "${site}/${HOSTING_FILES.apache}"
`;
}

/** How to start `server` over the site: command, arguments, environment, and its temporary folder. */
export function serverCommand(server: ServerName, o: ServeOptions): ServerCommand {
  const binary = findBinary(server);
  if (!binary) throw new MissingServer(server);
  const site = path.resolve(o.dir);
  const need = (file: string) => {
    if (!existsSync(path.join(site, file))) throw new Error(`${path.join(site, file)} is missing: build the site with this version of the project (npm run build), or serve it with --server http-server`);
  };
  const tmp = mkdtempSync(path.join(os.tmpdir(), `jaspar-serve-${server}-`));
  const cleanup = () => rmSync(tmp, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  let args: string[];
  try {
    switch (server) {
      case 'nginx':
        need(HOSTING_FILES.nginxHttp);
        need(HOSTING_FILES.nginxServer);
        if (o.node !== undefined) need(HOSTING_FILES.nginxNode);
        writeFileSync(path.join(tmp, 'nginx.conf'), nginxMainConf(o, tmp));
        args = ['-p', tmp, '-c', path.join(tmp, 'nginx.conf'), '-e', 'stderr'];
        break;
      case 'caddy':
        need(o.node === undefined ? HOSTING_FILES.caddy : HOSTING_FILES.caddyNode);
        // The Caddyfile reads where the site is and where to listen from the environment;
        // Caddy's own state (autosave, certificates: none here) goes to tmp.
        Object.assign(env, { JASPAR_SITE: site, JASPAR_PORT: String(o.port), JASPAR_BIND: o.host, HOME: tmp, XDG_DATA_HOME: tmp, XDG_CONFIG_HOME: tmp });
        if (o.node !== undefined) env.JASPAR_NODE = `127.0.0.1:${o.node}`;
        args = ['run', '--config', path.join(site, o.node === undefined ? HOSTING_FILES.caddy : HOSTING_FILES.caddyNode), '--adapter', 'caddyfile'];
        break;
      case 'apache': {
        need(HOSTING_FILES.apache);
        const unreadable = process.getuid?.() === 0 ? unreadableByOthers(site) : null;
        if (unreadable) throw new Error(`Apache started as root serves as the user nobody, who cannot ${unreadable}: every URL would answer 403 or 404. Make the site readable by others (chmod o+rx on the folders, o+r on the files), move it to a readable place such as /srv, or run npm run serve as another user`);
        if (o.node !== undefined) need(HOSTING_FILES.apacheNode);
        writeFileSync(path.join(tmp, 'httpd.conf'), apacheMainConf(o, tmp));
        args = ['-f', path.join(tmp, 'httpd.conf'), '-D', 'FOREGROUND'];
        break;
      }
      case 'netlify':
        need('_redirects');
        Object.assign(env, { BROWSER: 'none', NETLIFY_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' });
        if (o.edge !== true) {
          // Run from the empty tmp folder, so no netlify.toml or .env around can change the answers.
          args = ['dev', '--offline', '--internal-disable-edge-functions', '--dir', site, '--port', String(o.port), ...staticServerPort(o.staticPort)];
          break;
        }
        need(INDEX_PATH.slice(1));
        {
          const missing = netlifyEdgeMissing();
          if (missing.length > 0) throw new Error(`netlify dev with the edge function needs ${missing.join(' and ')}: npm ci installs them (or serve without it: --edge off)`);
        }
        // tmp becomes the project folder: the repository's netlify.toml, import map and edge function.
        netlifyProject(tmp, undefined);
        Object.assign(env, netlifyDevEnv(env));
        args = netlifyDevArgs(site, o.port, o.staticPort);
        break;
      case 'cloudflare': {
        need(INDEX_PATH.slice(1));
        Object.assign(env, wranglerDevEnv(env), { NO_COLOR: '1', FORCE_COLOR: '0' });
        const entry = wranglerProject(tmp, undefined);
        args = wranglerDevArgs(entry, path.join(tmp, 'wrangler.jsonc'), site, o.port, undefined, o.host);
        break;
      }
      case 'http-server':
        args = [site, '-p', String(o.port), '-a', o.host, '-s'];
        break;
      case 'node':
        need(SERVER_FILE);
        args = [path.join(site, SERVER_FILE), '--port', String(o.port), '--host', o.host];
        break;
    }
    if (o.node !== undefined) {
      if (server !== 'nginx' && server !== 'caddy' && server !== 'apache') throw new Error(`--with-node is for nginx, caddy and apache (${server === 'node' ? 'the Node server is the whole API itself' : `${server} runs the edge handler or serves files only`})`);
      need(SERVER_FILE);
    }
  } catch (error) {
    cleanup();
    throw error;
  }
  const sidecar = o.node === undefined ? undefined : { command: process.execPath, args: [path.join(site, SERVER_FILE), '--port', String(o.node), '--host', '127.0.0.1'] };
  return { command: binary, args, env, tmp, cleanup, sidecar };
}

/** What "other" users (Apache's nobody) cannot do on the way to the site's files, or null: every folder from / to the site searchable, the site's index.html readable. */
export function unreadableByOthers(site: string): string | null {
  const folders: string[] = [];
  for (let dir = path.resolve(site); ; dir = path.dirname(dir)) {
    folders.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of folders) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) return `enter ${dir} (mode ${(mode & 0o777).toString(8)})`;
  }
  const index = path.join(site, 'index.html');
  if (existsSync(index) && (statSync(index).mode & 0o004) === 0) return `read ${index} (mode ${(statSync(index).mode & 0o777).toString(8)})`;
  return null;
}

export class MissingServer extends Error {
  constructor(readonly server: ServerName) {
    super(`${server} is not installed (looked for ${BINARIES[server].names.join(', ')} on PATH and in /usr/sbin). Install it with: ${BINARIES[server].install}`);
  }
}

function parseArgs(argv: string[]): { server: ServerName; withNode: boolean } & ServeOptions {
  // Without --server: the Node server (serve.mjs), the whole API with nothing but Node.
  const options = { server: 'node' as string, dir: 'public', port: 8080, host: '127.0.0.1', edge: 'on', withNode: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--with-node') {
      options.withNode = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || !['--server', '--dir', '--port', '--host', '--edge'].includes(flag)) {
      throw new Error(`unknown or incomplete option "${flag}" (fix: --server ${SERVERS.join('|')} [--dir DIR] [--port P] [--host H] [--edge on|off] [--with-node])`);
    }
    i++;
    if (flag === '--server') options.server = value;
    else if (flag === '--dir') options.dir = value;
    else if (flag === '--port') options.port = Number(value);
    else if (flag === '--edge') options.edge = value;
    else options.host = value;
  }
  if (!SERVERS.includes(options.server as ServerName)) throw new Error(`--server must be one of ${SERVERS.join(', ')} (got "${options.server}")`);
  if (options.edge !== 'on' && options.edge !== 'off') throw new Error(`--edge must be on or off (got "${options.edge}")`);
  if (options.withNode && !['nginx', 'caddy', 'apache'].includes(options.server)) throw new Error('--with-node is for --server nginx, caddy or apache (the Node server behind them)');
  if (options.edge === 'off' && options.server !== 'netlify') throw new Error('--edge off is for --server netlify (the other servers have no edge handler; cloudflare is the Worker)');
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) throw new Error(`--port must be a port number (got "${options.port}")`);
  if (!existsSync(path.join(options.dir, 'index.html'))) throw new Error(`${path.resolve(options.dir)} holds no built site (fix: npm run build, or --dir the unpacked mirror)`);
  return { ...options, server: options.server as ServerName, edge: options.edge === 'on' };
}

/** Whether the site is a compact build (its index says so): only the Worker renders what it leaves out. */
export function isCompact(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(path.join(dir, INDEX_PATH), 'utf8')) as { compact?: boolean }).compact === true;
  } catch {
    return false;
  }
}

/** A port nobody listens on right now on 127.0.0.1: listen on port 0, read it, close (also the tests' free ports). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not read the port of a free socket'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  let command: ServerCommand;
  try {
    options = parseArgs(process.argv.slice(2));
    // netlify dev's internal static server on a free port of its own, not 3999 (taken by another netlify dev, it fails).
    if (options.server === 'netlify') options = { ...options, staticPort: await freePort() };
    if (options.withNode) options = { ...options, node: await freePort() };
    command = serverCommand(options.server, options);
  } catch (error) {
    process.stderr.write(`serve: ${(error as Error).message}\n`);
    return 2;
  }
  if (options.server !== 'cloudflare' && options.server !== 'node' && isCompact(options.dir)) {
    process.stderr.write(`serve: warning: ${path.resolve(options.dir)} is a compact build (--profile compact): only the Cloudflare Worker renders the files it leaves out (--server cloudflare)${options.server === 'netlify' && options.edge ? '; the Netlify edge function renders those under /api/ but not the logos' : ''}\n`);
  }
  const what = options.server === 'node' ? `the Node server (${SERVER_FILE})` : options.server === 'netlify' ? `netlify dev ${options.edge ? 'with the edge function' : 'without the edge function (files and rules only)'}` : options.server === 'cloudflare' ? 'wrangler dev with the Worker' : options.server;
  process.stdout.write(`serve: ${what} on http://${options.host}:${options.port}/ over ${path.resolve(options.dir)} (Ctrl-C stops it)\n`);
  if (command.sidecar) process.stdout.write(`serve: the Node server behind it on http://127.0.0.1:${options.node}/ (what the files cannot answer)\n`);
  const sidecar = command.sidecar ? spawn(command.sidecar.command, command.sidecar.args, { stdio: 'inherit' }) : undefined;
  let stopping = false;
  let child = spawn(command.command, command.args, { cwd: command.tmp, env: command.env, stdio: 'inherit' });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    child.kill(signal);
    sidecar?.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGTERM'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  let code: number;
  for (;;) {
    const started = Date.now();
    code = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        process.stderr.write(`serve: ${error.message}\n`);
        resolve(1);
      });
      child.once('exit', (status, signal) => resolve(status ?? (signal === 'SIGTERM' ? 0 : 1)));
    });
    // netlify dev (netlify-cli 26.2.0, and the newest source read) dies on a malformed
    // percent-escape such as /%c0%ae%c0%ae/: its rules proxy calls decodeURIComponent
    // unguarded. No version that survives it was found, so it is started again; one
    // that dies within 15 s of starting is not (it would never come up).
    if (stopping || options.server !== 'netlify' || Date.now() - started < 15_000) break;
    process.stderr.write(`serve: netlify dev stopped (exit ${code}; it dies on a malformed escape in a URL, a netlify-cli bug); starting it again\n`);
    child = spawn(command.command, command.args, { cwd: command.tmp, env: command.env, stdio: 'inherit' });
  }
  if (sidecar && sidecar.exitCode === null && sidecar.signalCode === null) {
    sidecar.kill('SIGTERM');
    await new Promise((resolve) => sidecar.once('exit', resolve));
  }
  command.cleanup();
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then((code) => process.exit(code));
}
