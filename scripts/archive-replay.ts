// node --import tsx scripts/archive-replay.ts snap SITE DIR before|after
// node --import tsx scripts/archive-replay.ts run SITE DIR [--runs N] [--check]
//
// A rebuild's archive step alone, replayed (issue 22: A/B of mirror/ without a rebuild each time, its
// CPU apart from the plan's and the render's). `snap ... before` keeps a two-release site's archives,
// checksums, manifests and their build state (index, places) before a rebuild, `snap ... after` the
// same after it; `run` puts the before files back (written over in place: no file freed, this disk
// discards freed blocks at once) and makes both archives at once, as build.ts does after a small
// rebuild, with the files the rebuild wrote (those whose manifest line changed or came) as written, and
// prints its CPU (user and system, worker threads included), wall time and members. --check compares the
// archives, manifests and their state (index, places) made with the after files (the same bytes, unless a
// change means other bytes).
import { closeSync, copyFileSync, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { scopeFiles, type MirrorScope } from '../generator/mirror/archive.ts';
import { walkSite } from '../generator/mirror/manifest.ts';
import { stopThreads } from '../generator/mirror/gzip.ts';
import { writeMirror } from '../generator/write/mirror.ts';
import { stateDir } from '../generator/write/state.ts';
import { LINKED_MAX } from '../generator/write/same-bytes.ts';

const [command, siteArg, dirArg, ...rest] = process.argv.slice(2);
const site = path.resolve(siteArg);
const dir = path.resolve(dirArg);
const scopes: MirrorScope[] = [{ dir: '', exclude: ['releases'] }, { dir: 'releases/2026', exclude: [] }];
const tag = (s: MirrorScope) => (s.dir ? s.dir.replace(/\//g, '-') : 'site');

/** A scope's files the step reads and writes: in the site, and in the build state. */
function files(scope: MirrorScope): { name: string; file: string }[] {
  const own = scopeFiles(scope);
  const state = (suffix: string) => path.join(stateDir(site), `archive-${tag(scope)}${suffix}`);
  return [
    { name: 'archive', file: path.join(site, own.archive) },
    { name: 'sum', file: path.join(site, own.sum) },
    { name: 'manifest', file: path.join(site, own.manifest) },
    { name: 'index', file: state('.tsv') },
    { name: 'places', file: state('.places') },
  ].map((f) => ({ ...f, name: `${tag(scope)}.${f.name}` }));
}

/** Bytes written over a file in place (cut to their length), or a new file. */
function writeOver(file: string, bytes: Buffer): void {
  if (!existsSync(file)) return writeFileSync(file, bytes);
  const fd = openSync(file, 'r+');
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, at);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

/** Each thread's user and system CPU seconds (Linux: /proc, clock ticks of 10 ms), by thread id; empty elsewhere. */
function threadCpu(): Map<number, { user: number; sys: number; name: string; cpu: number }> {
  const out = new Map<number, { user: number; sys: number; name: string; cpu: number }>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      // On CPU in ns (schedstat), where stat's user and system are in ticks of 10 ms.
      const cpu = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
      out.set(Number(tid), { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100, name, cpu });
    }
  } catch {
    // Not Linux: the process's totals alone.
  }
  return out;
}

/** A manifest's lines: path to hash. */
const lines = (text: string) => new Map(text.split('\n').filter(Boolean).map((l) => [l.slice(66), l.slice(0, 64)]));

if (command === 'snap') {
  const into = path.join(dir, rest[0]);
  mkdirSync(into, { recursive: true });
  for (const scope of scopes) for (const f of files(scope)) if (existsSync(f.file)) copyFileSync(f.file, path.join(into, f.name));
} else if (command === 'run') {
  const runs = rest.includes('--runs') ? Number(rest[rest.indexOf('--runs') + 1]) : 1;
  // The files the rebuild wrote: their line changed or came. Any other file is as the previous manifest says.
  const written = new Set<string>();
  let removed = 0;
  const removedFiles: string[] = [];
  for (const scope of scopes) {
    const before = lines(readFileSync(path.join(dir, 'before', `${tag(scope)}.manifest`), 'utf8'));
    const after = lines(readFileSync(path.join(dir, 'after', `${tag(scope)}.manifest`), 'utf8'));
    for (const [p, h] of after) if (before.get(p) !== h) written.add(p);
    for (const p of before.keys()) if (!after.has(p)) removed++, removedFiles.push(p);
  }
  // Files added or removed: the archives are made from the listing (the writer's; here the folder's, taken
  // before the clock starts, with the SHA-256 of the small files written, as the writer hands them over).
  const listChanged = removed > 0 || scopes.some((s) => [...written].some((p) => !lines(readFileSync(path.join(dir, 'before', `${tag(s)}.manifest`), 'utf8')).has(p) && (s.dir ? p.startsWith(`${s.dir}/`) : !p.startsWith('releases/'))));
  const listed: string[] = [];
  const dirs: string[] = [''];
  for (const e of walkSite(site)) (e.kind === 'dir' ? dirs : listed).push(e.path);
  const digests = new Map<string, string>();
  for (const p of written) {
    const bytes = readFileSync(path.join(site, p));
    if (bytes.length <= LINKED_MAX) digests.set(p, hash('sha256', bytes, 'hex'));
  }
  const listing = { files: listed, dirs, sha256: (p: string) => digests.get(p), removed: removedFiles };
  console.log(JSON.stringify({ written: written.size, removed, listChanged }));
  const before = new Map<string, Buffer>();
  for (const scope of scopes) for (const f of files(scope)) before.set(f.name, readFileSync(path.join(dir, 'before', f.name)));
  for (let run = 0; run < runs; run++) {
    for (const scope of scopes) for (const f of files(scope)) writeOver(f.file, before.get(f.name)!);
    const u0 = process.resourceUsage();
    const threads0 = threadCpu();
    const t0 = performance.now();
    if (process.env.JASPAR_MIRROR_TRACE) console.error(`mtrace main run ${(performance.timeOrigin + t0).toFixed(1)}`);
    const made = await Promise.all(scopes.map((scope) => writeMirror(site, { siteChanged: true, scope, written, listChanged, listing, intact: () => true })));
    if (process.env.JASPAR_MIRROR_TRACE) console.error(`mtrace main done ${(performance.timeOrigin + performance.now()).toFixed(1)}`);
    const u = process.resourceUsage();
    const user = (u.userCPUTime - u0.userCPUTime) / 1e6;
    const sys = (u.systemCPUTime - u0.systemCPUTime) / 1e6;
    const threads = threadCpu();
    // Each thread's CPU in the step (the main thread first, then the others that ran at least 10 ms: the mirror threads).
    const byThread = [...threads].map(([tid, t]) => ({ tid, name: t.name, user: t.user - (threads0.get(tid)?.user ?? 0), sys: t.sys - (threads0.get(tid)?.sys ?? 0), cpu: t.cpu - (threads0.get(tid)?.cpu ?? 0) })).filter((t) => t.tid === process.pid || t.user + t.sys >= 0.01);
    byThread.sort((a, b) => (a.tid === process.pid ? -1 : b.tid === process.pid ? 1 : b.user + b.sys - a.user - a.sys));
    const out: Record<string, unknown> = { user: +user.toFixed(3), sys: +sys.toFixed(3), cpu: +(user + sys).toFixed(3), threads: byThread.map((t) => `${t.name.replace(/ /g, '_')}:${(t.user).toFixed(2)}+${(t.sys).toFixed(2)}=${t.cpu.toFixed(3)}`).join(' '), wall: +((performance.now() - t0) / 1000).toFixed(3), archives: made.map((m) => ({ bytes: m.archiveBytes, members: m.members, reused: m.reused, patched: m.patched, s: +m.seconds.toFixed(3) })) };
    if (rest.includes('--check')) {
      const differ: string[] = [];
      for (const scope of scopes)
        for (const f of files(scope)) {
          const want = path.join(dir, 'after', f.name);
          if (existsSync(want) && !readFileSync(want).equals(readFileSync(f.file))) differ.push(f.name);
        }
      out.differ = differ;
    }
    console.log(JSON.stringify(out));
  }
  stopThreads();
} else {
  throw new Error(`${command}: no such command (fix: snap or run)`);
}
