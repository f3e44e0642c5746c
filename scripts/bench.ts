// npm run bench [-- --runs 3 --times 10 --scale-runs 1 --data DIR… --drf DIR --floor --scale-only --scratch DIR]
//
// Every figure of issue 22, measured in one run, as ratios:
//   - the site as `npm run build` makes it (every shipped release, or the
//     --data folders): full build into a new folder, its wall time, CPU and
//     peak RSS, files written; then no-op rebuilds and rebuilds with one count
//     of one matrix changed;
//   - the DRF stand-in (../shared/oracle/drf, tools/render_all.py: every list
//     page in every format through Django's WSGI handler, in process), once
//     before each full build, so that both see the same machine: its CPU per
//     response against the build's CPU per file written;
//   - with --times N (N > 1), scale: the first release alone and a synthetic
//     release N times larger (scripts/synthetic-release.ts), full builds:
//     time and peak RSS ratios (10x took an hour at load 10-30: not run
//     unless asked);
//   - with --floor, the I/O floor of each full build (scripts/io-floor.ts:
//     the same files and bytes, from memory, written the fastest way).
// Each build is a child process started as `npm run build` starts it
// (scripts/build-child.mjs: build() from the generator's bundle, no tsx; it
// reports its own process.resourceUsage(): CPU
// and peak RSS of the process with all its worker threads). Figures are
// median [min–max] of the runs, printed line by line and then as issue 22's
// table (markdown, the shape of docs/performance.md). Everything is written
// under a temporary folder and removed at the end; the bench stops at once
// when that folder's disk has too little free space for all of it
// (scripts/bench-disk.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkDisk } from './bench-disk.ts';
import { COMPRESSOR } from '../generator/mirror/deflate.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ChildResult {
  seconds: number;
  /** Seconds inside build(), without starting Node and loading the generator. */
  inside: number;
  cpu: number;
  /** The kernel's share of cpu (system time): creating 285,000 files, reading them back for the archives; it grows with other processes' writes to the same file system. */
  sys?: number;
  maxRssMb: number;
  files: number;
  bytes: number;
  written: number;
  matrices: number;
  /** CPU seconds of each step of build() (BuildReport.cpu). */
  steps?: { plan: number; site: number; mirror: number };
  /** Microseconds of kernel time a new file cost right before the build (fileCost). */
  probe?: number;
}

/** Flushes what earlier steps left in the page cache (a deleted site, the
 *  last build's writes), so that each timed step starts with a quiet disk:
 *  on this machine the same write takes 6 s or 48 s depending on it. */
const settle = () => execFileSync('sync');

/**
 * What a new file costs the kernel on the scratch disk right now: 2,000 files of 600 bytes made in a new
 * folder (kept until the bench ends: deleting them would slow what follows), in microseconds of this
 * process's system time a file. On this ext4 without a journal a file made within minutes of a large
 * deletion costs several times more (the kernel skips the recently freed inodes one by one): 45 us quiet,
 * 160 us after one, here. Printed before each full build, so that its kernel time can be read against it.
 */
let probes = 0;
function fileCost(scratch: string): number {
  const dir = path.join(scratch, 'probe', String(probes++));
  mkdirSync(dir, { recursive: true });
  const bytes = Buffer.alloc(600, 'a');
  const before = process.resourceUsage().systemCPUTime;
  for (let i = 0; i < 2000; i++) writeFileSync(path.join(dir, `f${i}`), bytes);
  return (process.resourceUsage().systemCPUTime - before) / 2000;
}

/** One build's figures for the progress log (a bench cut short still leaves them). */
const brief = (r: ChildResult) => `${r.probe !== undefined ? `(a new file ${r.probe.toFixed(0)} us of kernel time before it) ` : ''}${r.seconds.toFixed(1)} s, CPU ${r.cpu.toFixed(1)} s${r.sys !== undefined ? ` (${r.sys.toFixed(1)} s of it the kernel's)` : ''}${r.steps ? ` (plan ${r.steps.plan.toFixed(1)}, site ${r.steps.site.toFixed(1)}, mirror ${r.steps.mirror.toFixed(1)})` : ''}, peak RSS ${r.maxRssMb.toFixed(0)} MB, ${r.written} written`;

function runBuild(data: string[], out: string): ChildResult {
  settle();
  // A full build into a new folder: what a new file costs the kernel now.
  const probe = existsSync(out) ? undefined : fileCost(path.dirname(out));
  const started = performance.now();
  // As `npm run build` starts it: from the generator's bundle, without tsx (scripts/build-child.mjs).
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-child.mjs'), out, ...data], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr}`);
  const { report, cpu, sys, maxRssMb } = JSON.parse(r.stdout.trim().split('\n').pop()!);
  return { inside: report.seconds, cpu, sys, maxRssMb, files: report.files, bytes: report.bytes, written: report.written, matrices: report.matrices, steps: report.cpu, seconds, probe };
}

function floor(site: string, scratch: string): number {
  settle();
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/io-floor.ts'), site, scratch, 'keep'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim()).seconds;
}

// ---- the DRF stand-in ------------------------------------------------------

interface DrfResult {
  /** CPU seconds of the rendering loop (Python's process_time), wall seconds, responses rendered. */
  cpu: number;
  wall: number;
  requests: number;
}

/** The stand-in's Python (Debian's, with python3-django and python3-djangorestframework), or why there is none. */
function drfPython(dir: string): { python: string } | { missing: string } {
  if (!existsSync(path.join(dir, 'tools/render_all.py'))) return { missing: `no DRF stand-in at ${dir} (--drf DIR)` };
  for (const python of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(python, ['-c', 'import django, rest_framework, yaml'], { encoding: 'utf8' });
    if (r.status === 0) return { python };
  }
  return { missing: 'its Debian packages are not installed (apt-get install python3-django python3-djangorestframework python3-yaml)' };
}

/** Loads the release into the stand-in's SQLite file (not timed). */
function drfLoad(python: string, dir: string, data: string, db: string): void {
  execFileSync(python, ['manage.py', 'load_jaspar'], { cwd: dir, env: { ...process.env, JASPAR_DATA: data, JASPAR_DB: db }, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Every list page in every format, in process (tools/render_all.py); its RESULT line. */
function drfRender(python: string, dir: string, data: string, db: string): DrfResult {
  settle();
  const out = execFileSync(python, ['tools/render_all.py', '--host', 'localhost:8080'], {
    cwd: dir, env: { ...process.env, JASPAR_DATA: data, JASPAR_DB: db }, encoding: 'utf8', maxBuffer: 1 << 26,
  });
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`render_all.py printed no RESULT line:\n${out}`);
  const { total } = JSON.parse(line.slice('RESULT '.length)) as { total: { seconds: number; cpu_seconds: number; requests: number } };
  return { cpu: total.cpu_seconds, wall: total.seconds, requests: total.requests };
}

// ---- figures ---------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** median [min–max] (one figure for one run). */
const fmt = (xs: number[], digits = 2, unit = '') => {
  const m = median(xs).toFixed(digits);
  return xs.length > 1 ? `${m}${unit} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]` : `${m}${unit}`;
};
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');
/** The scale builds' ratios run by run: the i-th large build against the i-th 1x, built just before it. */
const pairRatios = (scale: { one: ChildResult[]; big: ChildResult[] }, k: (r: ChildResult) => number) => scale.big.map((r, i) => k(r) / k(scale.one[i]));

/** Changes one count of one matrix that has no full-precision counts; returns a function that changes it again. */
function oneMatrixChanger(data: string): { id: string; change: () => void } {
  const csv = readFileSync(path.join(data, 'matrices.csv'), 'utf8').split('\n');
  let precise: Record<string, unknown> = {};
  try {
    precise = JSON.parse(readFileSync(path.join(data, 'pfm_noninteger.json'), 'utf8'));
  } catch {
    // none
  }
  const id = csv.slice(1).map((l) => l.split(',')[0]).find((i) => i && !(i in precise))!;
  const file = path.join(data, 'matrices', `${id}.jaspar`);
  let step = 0;
  return {
    id,
    change() {
      const text = readFileSync(file, 'utf8');
      // The first count of the A row, one up or back down in turn.
      step++;
      writeFileSync(file, text.replace(/^(A\s*\[\s*)(\d+)/m, (_, head, n) => `${head}${Number(n) + (step % 2 ? 1 : -1)}`));
    },
  };
}

interface SiteFigures {
  full: ChildResult[];
  drf: DrfResult[];
  floor: number[];
  noop: ChildResult[];
  change: ChildResult[];
  changed: string;
}

interface Options {
  runs: number;
  floor: boolean;
  drf: { python: string; dir: string; data: string; db: string } | null;
  log: (s: string) => void;
}

/**
 * The site's figures. `data`: its releases, the first a writable copy whose
 * matrix files the one-matrix rebuilds edit. Every full build and floor copy
 * gets a folder of its own, and nothing is deleted until the end: this disk
 * is mounted with online discard, and a step that follows the deletion of a
 * 140,000-file tree waits for it (the same build took 24 s into new folders
 * and 68–75 s after deleting the previous one).
 */
function measureSite(data: string[], scratch: string, o: Options): SiteFigures {
  const f: SiteFigures = { full: [], drf: [], floor: [], noop: [], change: [], changed: '' };
  let out = '';
  for (let i = 0; i < o.runs; i++) {
    if (o.drf) {
      f.drf.push(drfRender(o.drf.python, o.drf.dir, o.drf.data, o.drf.db));
      o.log(`DRF stand-in ${i + 1}/${o.runs}: ${f.drf[i].wall.toFixed(1)} s, CPU ${f.drf[i].cpu.toFixed(1)} s, ${f.drf[i].requests} responses`);
    }
    out = path.join(scratch, `site-${i}`);
    f.full.push(runBuild(data, out));
    o.log(`site: full build ${i + 1}/${o.runs}: ${brief(f.full[i])}`);
    if (o.floor) {
      f.floor.push(floor(out, path.join(scratch, `floor-${i}`)));
      o.log(`site: I/O floor ${i + 1}/${o.runs}: ${f.floor[i].toFixed(1)} s`);
    }
  }
  for (let i = 0; i < o.runs; i++) {
    f.noop.push(runBuild(data, out));
    o.log(`site: no-op rebuild ${i + 1}/${o.runs}: ${brief(f.noop[i])}`);
  }
  const changer = oneMatrixChanger(data[0]);
  f.changed = changer.id;
  for (let i = 0; i < o.runs; i++) {
    changer.change();
    f.change.push(runBuild(data, out));
    o.log(`site: one matrix (${changer.id}) changed ${i + 1}/${o.runs}: ${brief(f.change[i])}`);
  }
  return f;
}

/** User CPU a file written, in ms (the whole build without the kernel's share). */
const userPerFile = (r: ChildResult) => (1000 * (r.cpu - (r.sys ?? 0))) / r.written;

/** Median CPU seconds of each step of build(), plan/site/mirror. */
const steps = (runs: ChildResult[]): string => (['plan', 'site', 'mirror'] as const).map((k) => median(runs.map((r) => r.steps?.[k] ?? 0)).toFixed(1)).join('/');

function fullLine(label: string, runs: ChildResult[]): string {
  return `${label} wall ${fmt(runs.map((r) => r.seconds), 1, ' s')}  CPU ${fmt(runs.map((r) => r.cpu), 1, ' s')}  peak RSS ${fmt(runs.map((r) => r.maxRssMb), 0, ' MB')}  ${fmt(runs.map((r) => r.files / r.seconds), 0)} files/s${runs.some((r) => r.probe !== undefined) ? `  (a new file ${fmt(runs.filter((r) => r.probe !== undefined).map((r) => r.probe!), 0, ' us')} of kernel time before)` : ''}`;
}

function siteReport(f: SiteFigures, releases: string): string[] {
  const r0 = f.full[0];
  const perFile = f.full.map((r) => (1000 * r.cpu) / r.written);
  const wallPerFile = f.full.map((r) => (1000 * r.seconds) / r.written);
  // The second definition: the site's files only, without the mirror archives (gzip of the whole site, a product
  // the service does not make) and without starting Node: planning, rendering and writing, over the files written.
  const sitePerFile = f.full.map((r) => (1000 * (r.steps!.plan + r.steps!.site)) / r.written);
  const lines = [
    `site (${releases}): ${thousands(r0.matrices)} matrices, ${thousands(r0.files)} files, ${(r0.bytes / 1e6).toFixed(0)} MB (+ the mirror archives and manifests)`,
    fullLine('  full build    ', f.full),
    `  per file       CPU ${fmt(perFile, 3, ' ms')}  wall ${fmt(wallPerFile, 3, ' ms')}  (the whole build: the process with its worker threads, from start to exit, over the files written)`,
    `  per file, site CPU ${fmt(sitePerFile, 3, ' ms')}  (planning, rendering and writing the files, over them; without starting Node and the mirror archives)`,
    `  CPU by step    plan ${fmt(f.full.map((r) => r.steps!.plan), 1, ' s')}  render+write ${fmt(f.full.map((r) => r.steps!.site), 1, ' s')}  mirror archives ${fmt(f.full.map((r) => r.steps!.mirror), 1, ' s')}`,
  ];
  if (f.floor.length > 0) lines.push(`  I/O floor      wall ${fmt(f.floor, 1, ' s')}  build/floor ${(median(f.full.map((r) => r.seconds)) / median(f.floor)).toFixed(2)}`);
  if (f.drf.length > 0) {
    const drfCpu = f.drf.map((d) => (1000 * d.cpu) / d.requests);
    const drfWall = f.drf.map((d) => (1000 * d.wall) / d.requests);
    // Run i of each, side by side: the same machine at the same time.
    const cpuRatio = f.drf.map((d, i) => drfCpu[i] / perFile[i]);
    const siteRatio = f.drf.map((d, i) => drfCpu[i] / sitePerFile[i]);
    const wallRatio = f.drf.map((d, i) => drfWall[i] / wallPerFile[i]);
    const userRatio = f.drf.map((d, i) => drfCpu[i] / userPerFile(f.full[i]));
    lines.push(
      `  DRF stand-in   ${thousands(f.drf[0].requests)} list responses  CPU ${fmt(drfCpu, 2, ' ms')}  wall ${fmt(drfWall, 2, ' ms')} a response  (render_all.py: the rendering loop's CPU, Django loaded, over the responses)`,
      `  build vs DRF   ${fmt(cpuRatio, 0, '×')} less CPU a file than DRF a response (the whole build; ${fmt(siteRatio, 0, '×')} for the site's files alone); ${fmt(wallRatio, 0, '×')} less wall time`,
      `  user CPU       ${fmt(userRatio, 0, '×')} less user CPU a file (the whole build) than DRF's CPU a response; the kernel's share, creating the files, depends on the disk (a new file ${fmt(f.full.filter((r) => r.probe !== undefined).map((r) => r.probe!), 0, ' us')} of kernel time before each build)`,
    );
  }
  lines.push(
    `  no-op rebuild  wall ${fmt(f.noop.map((r) => r.seconds), 2, ' s')} (in build() ${fmt(f.noop.map((r) => r.inside), 2, ' s')}, the rest is starting Node and loading the generator)  CPU ${fmt(f.noop.map((r) => r.cpu), 2, ' s')}  rewritten ${fmt(f.noop.map((r) => r.written), 0)}  peak RSS ${fmt(f.noop.map((r) => r.maxRssMb), 0, ' MB')}`,
    `  one matrix     wall ${fmt(f.change.map((r) => r.seconds), 1, ' s')} (in build() ${fmt(f.change.map((r) => r.inside), 1, ' s')})  CPU ${fmt(f.change.map((r) => r.cpu), 1, ' s')}  rewritten ${fmt(f.change.map((r) => r.written), 0)}  peak RSS ${fmt(f.change.map((r) => r.maxRssMb), 0, ' MB')}  (${f.changed}, one count)`,
  );
  return lines;
}

/**
 * Issue 22's table in markdown (docs/performance.md has its shape): each
 * cell median [min–max] of the runs; a ratio against DRF is taken run by
 * run (DRF run i beside build i, the same machine at the same time).
 */
function issueTable(f: SiteFigures | null, scale: { one: ChildResult[]; big: ChildResult[] } | null, runs: number, times: number, drfMissing: string | null): string[] {
  const rows: [string, string][] = [];
  const mb = (xs: number[]) => fmt(xs, 0, ' MB');
  const kernel = (r: ChildResult[]) => (r[0].sys !== undefined ? ` (kernel ${fmt(r.map((x) => x.sys!), 1, ' s')})` : '');
  const build = (r: ChildResult[]) => `wall ${fmt(r.map((x) => x.seconds), 1, ' s')}, **CPU ${fmt(r.map((x) => x.cpu), 1, ' s')}**${kernel(r)}, peak RSS ${mb(r.map((x) => x.maxRssMb))}`;
  const steps = (r: ChildResult[]) => (r[0].steps ? ` (CPU: plan ${fmt(r.map((x) => x.steps!.plan), 1, ' s')}, render+write ${fmt(r.map((x) => x.steps!.site), 1, ' s')}, mirror archives ${fmt(r.map((x) => x.steps!.mirror), 1, ' s')})` : '');
  if (f) {
    const perFile = f.full.map((r) => (1000 * r.cpu) / r.written);
    const sitePerFile = f.full.map((r) => (1000 * (r.steps!.plan + r.steps!.site)) / r.written);
    if (f.drf.length > 0) {
      const drfCpu = f.drf.map((d) => (1000 * d.cpu) / d.requests);
      rows.push([`DRF stand-in, ${thousands(f.drf[0].requests)} list responses`, `**${fmt(drfCpu, 2, ' ms')} CPU a response** (${f.drf.map((d) => d.cpu.toFixed(1)).join(', ')} s CPU; ${f.drf.map((d) => d.wall.toFixed(0)).join(', ')} s wall)`]);
    } else rows.push(['DRF stand-in', `not measured: ${drfMissing ?? 'no run'}`]);
    rows.push([`site, full build, ${thousands(f.full[0].files)} files (${thousands(f.full[0].matrices)} matrices)`, `${build(f.full)}${steps(f.full)}`]);
    const vs = (mine: number[]) => (f.drf.length > 0 ? `: **${fmt(f.drf.map((d, i) => (1000 * d.cpu) / d.requests / mine[i]), 0, '×')} less than DRF a response**` : '');
    rows.push(['CPU a file, the whole build (workers, starting Node, mirror archives)', `${fmt(perFile, 3, ' ms')}${vs(perFile)}`]);
    rows.push(['CPU a file, the site\'s files alone (plan, render, write)', `${fmt(sitePerFile, 3, ' ms')}${vs(sitePerFile)}`]);
    if (f.drf.length > 0 && f.full[0].sys !== undefined) {
      const probe = f.full.filter((r) => r.probe !== undefined).map((r) => r.probe!);
      rows.push(['user CPU a file, the whole build (without the kernel\'s share)', `${fmt(f.full.map(userPerFile), 3, ' ms')}${vs(f.full.map(userPerFile))}; a new file cost the kernel ${fmt(probe, 0, ' us')} right before each build`]);
    }
    if (f.drf.length > 0) {
      const wallPerFile = f.full.map((r) => (1000 * r.seconds) / r.written);
      rows.push(['wall a file against DRF\'s wall a response', `${fmt(f.drf.map((d, i) => (1000 * d.wall) / d.requests / wallPerFile[i]), 0, '×')}`]);
    }
    rows.push(['no-op rebuild', `${build(f.noop)}, ${fmt(f.noop.map((r) => r.written), 0)} files written`]);
    rows.push([`one count of one matrix changed (${f.changed})`, `${build(f.change)}${steps(f.change)}, ${fmt(f.change.map((r) => r.written), 0)} files written`]);
  }
  if (scale) {
    rows.push([`the first release alone, ${thousands(scale.one[0].files)} files`, build(scale.one)]);
    rows.push([`${times}x synthetic, ${thousands(scale.big[0].files)} files`, `${build(scale.big)}; ${fmt(pairRatios(scale, (r) => r.seconds), 2, '×')} the 1x wall, ${fmt(pairRatios(scale, (r) => r.cpu), 2, '×')} its CPU (run by run)`]);
  } else rows.push(['10x synthetic', 'not measured (--times 10)']);
  return [`| | median [min–max] of ${runs} run${runs > 1 ? 's' : ''} |`, '|---|---|', ...rows.map(([a, b]) => `| ${a} | ${b} |`)];
}

async function main(): Promise<void> {
  const { shippedReleases } = await import('../generator/build.ts');
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      'scale-runs': { type: 'string', default: '1' },
      /** The synthetic release's size; 1 (the default) measures no scale builds. */
      times: { type: 'string', default: '1' },
      data: { type: 'string', multiple: true },
      drf: { type: 'string', default: path.resolve(ROOT, '../shared/oracle/drf') },
      floor: { type: 'boolean', default: false },
      /** Scale figures only (--times), e.g. in a run of its own. */
      'scale-only': { type: 'boolean', default: false },
      scratch: { type: 'string' },
    },
  });
  const data = (values.data ?? shippedReleases()).map((d) => path.resolve(d));
  const runs = Number(values.runs);
  const scaleRuns = Number(values['scale-runs']);
  const times = Number(values.times);
  // Every build's folder is kept until the end: said at once when they will not fit, not with ENOSPC minutes in.
  try {
    checkDisk(values.scratch ?? os.tmpdir(), { site: values['scale-only'] ? [] : data, runs, floor: values.floor, times, scaleRuns }, data[0]);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
  const scratch = mkdtempSync(path.join(values.scratch ?? os.tmpdir(), 'jaspar-bench-'));
  const log = (s: string) => process.stderr.write(`  … ${s}\n`);
  const started = performance.now();
  const lines: string[] = [];
  try {
    const load = os.loadavg()[0];
    // A writable copy of the first release: the one-matrix-changed rebuilds edit it.
    const first = path.join(scratch, 'release', path.basename(data[0]));
    mkdirSync(path.dirname(first), { recursive: true });
    cpSync(data[0], first, { recursive: true });
    const copy = [first, ...data.slice(1)];
    const python = drfPython(values.drf);
    let drf: Options['drf'] = null;
    let site: SiteFigures | null = null;
    let scale: { one: ChildResult[]; big: ChildResult[] } | null = null;
    // The archives' compressor (mirror/deflate.ts) is the builds' too: they run in this checkout.
    lines.push(`bench ${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ${os.availableParallelism()} cores, load ${load.toFixed(1)} at start, archives by ${COMPRESSOR}; median [min–max] of ${runs} runs${times > 1 ? ` (${scaleRuns} for scale)` : ''}`);
    if ('python' in python && !values['scale-only']) {
      drf = { python: python.python, dir: values.drf, data: data[0], db: path.join(scratch, 'drf.sqlite3') };
      drfLoad(drf.python, drf.dir, drf.data, drf.db);
      log('DRF stand-in loaded');
    }
    if (!values['scale-only']) {
      const names = data.map((d) => path.basename(d)).join(' + ');
      site = measureSite(copy, path.join(scratch, 'site'), { runs, floor: values.floor, drf, log });
      lines.push(...siteReport(site, names));
      if (!drf) lines.push(`  DRF stand-in   not measured: ${(python as { missing: string }).missing}`);
    }
    // --times 1: the site's figures only.
    if (times > 1) {
      const { makeSyntheticRelease } = await import('./synthetic-release.ts');
      const synthetic = path.join(scratch, `synthetic-${times}x`);
      makeSyntheticRelease(data[0], synthetic, times);
      const one: ChildResult[] = [];
      const big: ChildResult[] = [];
      for (let i = 0; i < scaleRuns; i++) {
        one.push(runBuild([data[0]], path.join(scratch, 'scale', `one-${i}`)));
        log(`scale: ${path.basename(data[0])} alone ${i + 1}/${scaleRuns}: ${brief(one[i])}`);
        big.push(runBuild([synthetic], path.join(scratch, 'scale', `big-${i}`)));
        log(`scale: ${times}x ${i + 1}/${scaleRuns}: ${brief(big[i])}`);
      }
      scale = { one, big };
      // Pair by pair (each 1x with the 10x built right after it): a ratio of medians mixed a disturbed 1x with a quiet
      // 10x when the disk was slowed by a deletion for some runs only (the 1x runs 42.1, 24.4, 10.6 s: 4.41x).
      const ratio = (k: (r: ChildResult) => number) => fmt(pairRatios({ one, big }, k), 2, '×');
      lines.push(
        `scale: ${path.basename(data[0])} alone (${thousands(one[0].matrices)} matrices, ${thousands(one[0].files)} files) and ${times}x synthetic (${thousands(big[0].matrices)}, ${thousands(big[0].files)} files, ${(big[0].bytes / 1e9).toFixed(1)} GB)`,
        fullLine('  1x full build ', one),
        fullLine(`  ${times}x full build`.padEnd(16), big),
        `  ${times}x / 1x      wall ${ratio((r) => r.seconds)}  CPU ${ratio((r) => r.cpu)}  peak RSS ${ratio((r) => r.maxRssMb)}  (matrices ${times}×; run by run)`,
        // User and kernel apart: at load the wall ratio followed the kernel's time (file creation), not rendering.
        `  CPU user / kernel: 1x ${fmt(one.map((r) => r.cpu - (r.sys ?? 0)), 1, ' s')} / ${fmt(one.map((r) => r.sys ?? 0), 1, ' s')}, ${times}x ${fmt(big.map((r) => r.cpu - (r.sys ?? 0)), 1, ' s')} / ${fmt(big.map((r) => r.sys ?? 0), 1, ' s')}; by step (plan, site, mirror) 1x ${steps(one)}, ${times}x ${steps(big)}`,
      );
    }
    lines.push(`load at the end ${os.loadavg()[0].toFixed(1)}; the bench took ${((performance.now() - started) / 60000).toFixed(0)} min`);
    lines.push('', ...issueTable(site, scale, site ? runs : scaleRuns, times, 'python' in python ? null : python.missing));
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
