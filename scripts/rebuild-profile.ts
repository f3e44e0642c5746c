// node --import tsx scripts/rebuild-profile.ts [--scratch DIR] [--runs 3] [--only count,annotation,add,remove,noop] [--cpu-prof] [--timeline] [--floor]
//
// Rebuilds of the shipped two-release site after one small edit (issue 22),
// each a child process started as `npm run build` starts it
// (scripts/build-child.mjs: build() from the generator's bundle, and its own
// process.resourceUsage(), worker threads included): wall and CPU, CPU
// of build()'s steps (BuildReport.cpu), files written, tasks rendered.
// Edits, to data/jaspar-2024 itself (every file touched is put back at the end):
//   count       one count of one matrix, one up then back down;
//   annotation  one matrix's tf_family, changed then restored;
//   remove/add  one matrix taken out of matrices.csv (its .jaspar file too),
//               then put back (run in that order, as pairs).
// The scratch folder (default /tmp/jaspar-rebuild-profile) keeps the site
// between runs: the first run builds it in full. With
// --cpu-prof each rebuild writes a V8 CPU profile into scratch/profiles; with
// --timeline each prints the wall-clock marks of its steps (pipeline/timeline.ts); with --floor each
// rebuild but the no-op is followed by the floor of the files it wrote (scripts/rebuild-floor.ts: their
// zlib at the archives' levels, SHA-256 and writing, both cores working, nothing rendered), printed
// beside it, and the summary adds the no-op's wall to it: no rebuild writing those files takes less.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Floor } from './rebuild-floor.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Result {
  wall: number;
  inside: number;
  cpu: number;
  /** The process's system CPU, and the main thread's own user and system CPU (build-child.mjs; null off Linux). */
  sys: number;
  main: { user: number; sys: number } | null;
  maxRssMb: number;
  written: number;
  removed: number;
  rendered: number;
  reused: number;
  upToDate: boolean;
  steps?: Record<string, number>;
  members?: { made: number; reused: number };
}

function runBuild(out: string, data: string[], prof: string | null, timeline = false): Result {
  const started = performance.now();
  const args = [...(prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : []), path.join(ROOT, 'scripts/build-child.mjs'), out, ...data];
  const env = timeline ? { ...process.env, JASPAR_TIMELINE: '1' } : process.env;
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26, env });
  const wall = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr}`);
  if (timeline) process.stderr.write(r.stderr.split('\n').filter((l) => l.startsWith('timeline')).map((l) => `  ${l}\n`).join(''));
  const { report, cpu, sys, main, maxRssMb } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return {
    wall, inside: report.seconds, cpu, sys, main, maxRssMb, written: report.written, removed: report.removed, rendered: report.tasks.rendered, reused: report.tasks.reused,
    upToDate: report.upToDate, steps: report.cpu, members: report.archiveMembers,
  };
}

/**
 * The floor of the files a rebuild wrote (scripts/rebuild-floor.ts), measured in a child process: the 290 MB of
 * bytes it holds would otherwise be this process's, and a child it starts begins with this process's peak RSS as
 * its own (Linux keeps a process's maxrss across fork and exec), which the next rebuild would report.
 */
function floorOf(site: string, since: number, scratch: string): Floor {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/rebuild-floor.ts'), site, String(since), scratch], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`rebuild-floor.ts failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Floor;
}

/** The edits, each a pair of steps (do, undo) that leave the release as it was. */
function edits(release: string, scratch: string, keep: (file: string) => void): Record<string, () => void> {
  const csvFile = path.join(release, 'matrices.csv');
  const precise = JSON.parse(readFileSync(path.join(release, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>;
  const rows = readFileSync(csvFile, 'utf8').split('\n');
  // A matrix in the middle of the list, with whole counts (its .jaspar file is its counts).
  const ids = rows.slice(1).filter(Boolean).map((l) => l.split(',')[0]);
  const id = ids.slice(Math.floor(ids.length / 2)).find((i) => !(i in precise))!;
  const jaspar = path.join(release, 'matrices', `${id}.jaspar`);
  const aside = path.join(scratch, `${id}.jaspar.aside`);
  keep(csvFile);
  keep(jaspar);
  let count = 0;
  let annotation = 0;
  // The row as it was when removed (an annotation edit made before stays when the matrix comes back).
  let removed = '';
  return {
    count() {
      count++;
      writeFileSync(jaspar, readFileSync(jaspar, 'utf8').replace(/^(A\s*\[\s*)(\d+)/m, (_, head, n) => `${head}${Number(n) + (count % 2 ? 1 : -1)}`));
    },
    annotation() {
      annotation++;
      const lines = readFileSync(csvFile, 'utf8').split('\n');
      const i = lines.findIndex((l) => l.startsWith(`${id},`));
      const cells = lines[i].split(',');
      cells[7] = annotation % 2 ? `${cells[7]} (edited)` : cells[7].replace(/ \(edited\)$/, '');
      lines[i] = cells.join(',');
      writeFileSync(csvFile, lines.join('\n'));
    },
    remove() {
      const lines = readFileSync(csvFile, 'utf8').split('\n');
      removed = lines.find((l) => l.startsWith(`${id},`))!;
      writeFileSync(csvFile, lines.filter((l) => !l.startsWith(`${id},`)).join('\n'));
      renameSync(jaspar, aside);
    },
    add() {
      const lines = readFileSync(csvFile, 'utf8').split('\n');
      const row = removed || rows.find((l) => l.startsWith(`${id},`))!;
      // Back in its place (the release lists matrices in id order).
      const at = lines.findIndex((l, i) => i > 0 && l.split(',')[0] > id);
      lines.splice(at < 0 ? lines.length : at, 0, row);
      writeFileSync(csvFile, lines.join('\n'));
      renameSync(aside, jaspar);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (xs: number[], digits = 2) => (xs.length > 1 ? `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]` : xs[0].toFixed(digits));

async function main(): Promise<void> {
  const { values } = parseArgs({
    allowPositionals: true,
    options: { scratch: { type: 'string', default: '/tmp/jaspar-rebuild-profile' }, runs: { type: 'string', default: '3' }, only: { type: 'string', default: 'noop,count,annotation,remove,add' }, 'cpu-prof': { type: 'boolean', default: false }, timeline: { type: 'boolean', default: false }, floor: { type: 'boolean', default: false } },
  });
  const scratch = path.resolve(values.scratch);
  // The shipped folder itself, as a user edits it: JASPAR 2026 takes its older versions from it too
  // (older_versions), so a copy would make the build read two folders where users have one. Every file
  // an edit touches is put back as it was at the end, whatever happens.
  const release = path.join(ROOT, 'data/jaspar-2024');
  const data = [release, path.join(ROOT, 'data/jaspar-2026')];
  const saved = new Map<string, Buffer>();
  const keep = (file: string) => {
    if (!saved.has(file)) saved.set(file, readFileSync(file));
  };
  try {
    await measure(scratch, release, data, values, keep);
  } finally {
    for (const [file, bytes] of saved) writeFileSync(file, bytes);
    const aside = (existsSync(scratch) ? readdirSync(scratch) : []).filter((n) => n.endsWith('.jaspar.aside'));
    for (const name of aside) renameSync(path.join(scratch, name), path.join(release, 'matrices', name.replace(/\.aside$/, '')));
  }
}

async function measure(scratch: string, release: string, data: string[], values: { runs: string; only: string; 'cpu-prof': boolean; timeline: boolean; floor: boolean }, keep: (file: string) => void): Promise<void> {
  const only = values.only.split(',');
  const names = ['noop', 'count', 'annotation', 'remove', 'add'];
  const unknown = only.filter((n) => !names.includes(n));
  if (unknown.length) throw new Error(`--only ${values.only}: no edit named ${unknown.join(', ')} (fix: choose among ${names.join(', ')})`);
  // add puts back the matrix remove took out: alone it has nothing to put back.
  if (only.includes('add') && !(only.includes('remove') && only.indexOf('remove') < only.indexOf('add'))) {
    throw new Error(`--only ${values.only}: add puts back the matrix remove took out (fix: --only remove,add)`);
  }
  mkdirSync(scratch, { recursive: true });
  const site = path.join(scratch, 'site');
  const prof = values['cpu-prof'] ? path.join(scratch, 'profiles') : null;
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const first = runBuild(site, data, null);
  log(`first build: ${first.upToDate ? 'up to date' : `${first.wall.toFixed(1)} s wall, CPU ${first.cpu.toFixed(1)} s, ${first.written} written`}`);
  const edit = edits(release, scratch, keep);
  const results = new Map<string, Result[]>();
  const runs = Number(values.runs);
  const brief = (r: Result) => `${r.wall.toFixed(2)} s wall (${r.inside.toFixed(2)} in build), CPU ${r.cpu.toFixed(2)} s (sys ${r.sys.toFixed(2)}; main thread ${r.main ? `user ${r.main.user.toFixed(2)} sys ${r.main.sys.toFixed(2)}` : '?'}) ${JSON.stringify(r.steps ?? {})}, ${r.written} written, ${r.removed} removed, ${r.rendered} rendered of ${r.rendered + r.reused}, members ${JSON.stringify(r.members)}, RSS ${r.maxRssMb.toFixed(0)} MB`;
  const floors = new Map<string, Floor[]>();
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  for (let i = 0; i < runs; i++) {
    for (const name of only) {
      if (name !== 'noop') edit[name]();
      // The files the rebuild writes are those changed from here on (a file's mtime is the kernel's coarse clock: a second back is safe, nothing else writes the scratch site).
      const since = Date.now() - 1000;
      const r = runBuild(site, data, prof, values.timeline);
      log(`${name} ${i + 1}: ${brief(r)}`);
      results.set(name, [...(results.get(name) ?? []), r]);
      if (values.floor && name !== 'noop') {
        const f = floorOf(site, since, path.join(scratch, 'floor'));
        floors.set(name, [...(floors.get(name) ?? []), f]);
        const parts = f.archives.map((a) => `${a.scope} ${a.files} files ${mb(a.bytes)} -> ${mb(a.gzipped)} at level ${a.level}`).join('; ');
        log(`${name} ${i + 1} floor: ${f.files} files, ${mb(f.bytes)} (${parts}); CPU zlib ${f.zlib.cpu.toFixed(2)} s, SHA-256 ${f.sha256.cpu.toFixed(2)} s, written over ${f.write.cpu.toFixed(2)} s: ${f.bound.toFixed(2)} s on the cores`);
      }
      // count and annotation: undone by the next run of the same edit (not timed when this is the last run).
      if ((name === 'count' || name === 'annotation') && i === runs - 1 && runs % 2 === 1) {
        edit[name]();
        runBuild(site, data, null);
      }
    }
  }
  for (const [name, rs] of results) {
    log(`${name.padEnd(10)} wall ${fmt(rs.map((r) => r.wall))} s  CPU ${fmt(rs.map((r) => r.cpu))} s  written ${fmt(rs.map((r) => r.written), 0)}  rendered ${fmt(rs.map((r) => r.rendered), 0)}`);
  }
  const noop = results.get('noop');
  for (const [name, fs] of floors) {
    const plus = noop ? `; with the no-op's wall ${fmt(noop.map((r) => r.wall))} s, ${(median(noop.map((r) => r.wall)) + median(fs.map((f) => f.bound))).toFixed(2)} s` : ' (run the no-op too, --only noop,..., for the plan\'s checks)';
    log(`${name.padEnd(10)} floor: zlib, SHA-256 and writing of its files ${fmt(fs.map((f) => f.bound))} s on the cores, nothing rendered${plus}`);
  }
}

await main();
