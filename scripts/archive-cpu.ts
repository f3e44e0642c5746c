// node --import tsx scripts/archive-cpu.ts SITE [--runs N] [--digests]: the full build's archive step alone, on a site a
// full build wrote (both releases' scopes, one after the other, as build.ts makes them after a full write):
// its CPU (user and system, worker threads included), wall time and members, each run. The archives are
// made again from the files (no previous index used: written null), from a listing of the folder taken
// before the clock starts (as the writer's is). A/B measurements of mirror/ without a full build each time.
// --digests: the listing gives the SHA-256 of every file of at most LINKED_MAX bytes, hashed before the
// clock starts, as the writer's does after a full build (write/same-bytes.ts written()).
import path from 'node:path';
import { walkSite } from '../generator/mirror/manifest.ts';
import { writeMirror } from '../generator/write/mirror.ts';
import { stopThreads } from '../generator/mirror/gzip.ts';
import { LINKED_MAX } from '../generator/write/same-bytes.ts';
import { readFileSync } from 'node:fs';
import { hash } from 'node:crypto';

const args = process.argv.slice(2);
const site = path.resolve(args[0]);
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 1;
const files: string[] = [];
const dirs: string[] = [''];
for (const e of walkSite(site)) (e.kind === 'dir' ? dirs : files).push(e.path);
const digests = new Map<string, string>();
if (args.includes('--digests'))
  for (const f of files) {
    const bytes = readFileSync(path.join(site, f));
    if (bytes.length <= LINKED_MAX) digests.set(f, hash('sha256', bytes, 'hex'));
  }
const listing = { files, dirs, sha256: args.includes('--digests') ? (f: string) => digests.get(f) : undefined };
const scopes = [{ dir: '', exclude: ['releases'] }, { dir: 'releases/2026', exclude: [] }];
for (let run = 0; run < runs; run++) {
  const u0 = process.resourceUsage();
  const t0 = performance.now();
  const made = [];
  for (const scope of scopes) made.push(await writeMirror(site, { siteChanged: true, scope, written: null, listing }));
  const u = process.resourceUsage();
  const user = (u.userCPUTime - u0.userCPUTime) / 1e6;
  const sys = (u.systemCPUTime - u0.systemCPUTime) / 1e6;
  console.log(JSON.stringify({ user: +user.toFixed(2), sys: +sys.toFixed(2), cpu: +(user + sys).toFixed(2), wall: +((performance.now() - t0) / 1000).toFixed(2), archives: made.map((m) => [m.archiveBytes, m.archiveSha256.slice(0, 12), m.members]) }));
}
stopThreads();
