// npm run serve: what it says when it cannot start (the servers starting
// from it: conformance.test.ts, prefix-shards.test.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingServer, findBinary, isCompact, netlifyEdgeMissing, serverCommand, unreadableByOthers } from '../../scripts/serve.ts';
import { PROJECT_ROOT } from '../support/paths.ts';
import { runScript } from '../support/run.ts';

const serve = (...args: string[]) => runScript('scripts/serve.ts', args);

describe('npm run serve', () => {
  it('names a missing server and the command that installs it, installing nothing', () => {
    expect(findBinary('nginx', ['/nonexistent'])).toBeUndefined();
    expect(new MissingServer('nginx').message).toMatch(/nginx is not installed .*apt-get install --no-install-recommends nginx-light/);
    expect(new MissingServer('apache').message).toMatch(/apt-get install --no-install-recommends apache2/);
    expect(new MissingServer('caddy').message).toMatch(/apt-get install --no-install-recommends caddy/);
  });

  it.each([
    [['--server', 'iis'], /--server must be one of node, netlify, cloudflare, nginx, caddy, apache, http-server/],
    [['--server', 'netlify', '--edge', 'maybe'], /--edge must be on or off/],
    [['--server', 'nginx', '--edge', 'off'], /--edge off is for --server netlify/],
    [['--server', 'nginx', '--port', 'eighty'], /--port must be a port number/],
    [['--server', 'nginx', '--dir', '/nonexistent/site'], /holds no built site \(fix: npm run build/],
    [['--servr', 'nginx'], /unknown or incomplete option "--servr"/],
  ])('refuses %j and exits 2', async (args, message) => {
    const run = await serve(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('says why Apache started as root cannot read a site under a private folder (it serves as nobody: 403/404 for everything)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-serve-private-'));
    try {
      const site = path.join(root, 'home', 'site');
      mkdirSync(site, { recursive: true });
      writeFileSync(path.join(site, 'index.html'), '');
      chmodSync(root, 0o755);
      chmodSync(path.join(root, 'home'), 0o700);
      expect(unreadableByOthers(site)).toBe(`enter ${path.join(root, 'home')} (mode 700)`);
      chmodSync(path.join(root, 'home'), 0o755);
      chmodSync(path.join(site, 'index.html'), 0o600);
      expect(unreadableByOthers(site)).toBe(`read ${path.join(site, 'index.html')} (mode 600)`);
      chmodSync(path.join(site, 'index.html'), 0o644);
      expect(unreadableByOthers(site)).toBeNull();
      if (process.getuid?.() === 0 && findBinary('apache')) {
        chmodSync(path.join(root, 'home'), 0o700);
        mkdirSync(path.join(site, '_hosting'));
        writeFileSync(path.join(site, '_hosting/apache.conf'), '');
        expect(() => serverCommand('apache', { dir: site, port: 18498, host: '127.0.0.1' })).toThrow(/Apache started as root serves as the user nobody, who cannot enter .*home \(mode 700\)/);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  describe('the edge engines (commands only; compact.test.ts starts them)', () => {
    // A site folder as far as the commands look: the rules, the edge index, a page.
    const site = mkdtempSync(path.join(os.tmpdir(), 'jaspar-serve-site-'));
    mkdirSync(path.join(site, '_edge'));
    writeFileSync(path.join(site, '_redirects'), '');
    writeFileSync(path.join(site, 'index.html'), '');
    writeFileSync(path.join(site, '_edge/index.json'), '{"compact":true}');
    const bare = mkdtempSync(path.join(os.tmpdir(), 'jaspar-serve-bare-'));
    writeFileSync(path.join(bare, '_redirects'), '');
    afterAll(() => {
      rmSync(site, { recursive: true, force: true });
      rmSync(bare, { recursive: true, force: true });
    });
    const o = { dir: site, port: 18499, host: '127.0.0.1' };

    it('netlify: netlify dev with the edge function from a project folder of the repository\'s files, or without it (--edge off)', () => {
      expect(netlifyEdgeMissing()).toEqual([]);
      const edge = serverCommand('netlify', { ...o, edge: true });
      try {
        expect(edge.args).not.toContain('--internal-disable-edge-functions');
        expect(edge.args).toEqual(expect.arrayContaining(['dev', '--offline', '--dir', site, '--port', '18499']));
        expect(readFileSync(path.join(edge.tmp, 'netlify.toml'), 'utf8')).toBe(readFileSync(path.join(PROJECT_ROOT, 'netlify.toml'), 'utf8'));
        expect(readlinkSync(path.join(edge.tmp, 'netlify/edge-functions'))).toBe(path.join(PROJECT_ROOT, 'netlify/edge-functions'));
        expect(edge.env.NETLIFY_EDGE_BOOTSTRAP).toMatch(/^file:.*bootstrap\.mjs$/);
        expect(edge.env.PATH?.split(path.delimiter)[0]).toMatch(/@deno/);
      } finally {
        edge.cleanup();
      }
      expect(existsSync(edge.tmp)).toBe(false);
      const off = serverCommand('netlify', { ...o, edge: false });
      off.cleanup();
      expect(off.args).toContain('--internal-disable-edge-functions');
      // The tests' servers (startSiteServer) name no edge: the files and rules alone, as before.
      const plain = serverCommand('netlify', o);
      plain.cleanup();
      expect(plain.args).toContain('--internal-disable-edge-functions');
    });

    it('cloudflare: wrangler dev with the Worker in front of the folder as its assets', () => {
      const command = serverCommand('cloudflare', o);
      try {
        expect(command.command).toBe(path.join(PROJECT_ROOT, 'node_modules/.bin/wrangler'));
        expect(command.args.slice(0, 2)).toEqual(['dev', path.join(PROJECT_ROOT, 'cloudflare/worker.ts')]);
        expect(command.args).toEqual(expect.arrayContaining(['--config', path.join(command.tmp, 'wrangler.jsonc'), '--assets', site, '--ip', '127.0.0.1', '--port', '18499']));
        expect(command.env.WRANGLER_SEND_METRICS).toBe('false');
      } finally {
        command.cleanup();
      }
    });

    it('refuses a site built without the edge indexes, and tells a compact build', () => {
      expect(() => serverCommand('cloudflare', { ...o, dir: bare })).toThrow(/_edge\/index\.json is missing: build the site/);
      expect(() => serverCommand('netlify', { ...o, dir: bare, edge: true })).toThrow(/_edge\/index\.json is missing/);
      expect(isCompact(site)).toBe(true);
      expect(isCompact(bare)).toBe(false);
    });
  });
});
