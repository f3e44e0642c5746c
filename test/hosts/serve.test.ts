// npm run serve: what it says when it cannot start (the servers starting
// from it: conformance.test.ts, prefix-shards.test.ts).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingServer, findBinary } from '../../scripts/serve.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const serve = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/serve.ts'), ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });

describe('npm run serve', () => {
  it('names a missing server and the command that installs it, installing nothing', () => {
    expect(findBinary('nginx', ['/nonexistent'])).toBeUndefined();
    expect(new MissingServer('nginx').message).toMatch(/nginx is not installed .*apt-get install --no-install-recommends nginx-light/);
    expect(new MissingServer('apache').message).toMatch(/apt-get install --no-install-recommends apache2/);
    expect(new MissingServer('caddy').message).toMatch(/apt-get install --no-install-recommends caddy/);
  });

  it.each([
    [['--server', 'iis'], /--server must be one of netlify, nginx, caddy, apache, http-server/],
    [['--server', 'nginx', '--port', 'eighty'], /--port must be a port number/],
    [['--server', 'nginx', '--dir', '/nonexistent/site'], /holds no built site \(fix: npm run build/],
    [['--servr', 'nginx'], /unknown or incomplete option "--servr"/],
  ])('refuses %j and exits 2', (args, message) => {
    const run = serve(...args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
