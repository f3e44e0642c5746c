// npm run bench [-- --runs 3 --scale-runs 1 --times 10 --data DIR --scratch DIR]
//
// Measures the build of the full shared release and of a synthetic release
// `times` larger (scripts/synthetic-release.ts), in one run:
//   full build (no output folder, no state): wall, CPU, peak RSS, files, MB, files/s;
//   the I/O floor in the same run: the same files and bytes, from memory,
//   written the fastest way this machine allows (scripts/io-floor.ts);
//   no-op rebuild and one-matrix-changed rebuild: wall and files rewritten;
//   per-matrix cost at `times`x over 1x.
// Each build is a child process (`node --import tsx scripts/bench.ts --child …`,
// which runs build() and reports its own process.resourceUsage(): CPU and
// peak RSS of the process with all its worker threads). Figures are medians
// of the runs, [min–max]. Everything is written under a temporary folder and
// removed at the end.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface ChildResult {
  seconds: number;
  /** Seconds inside build(), without starting Node and loading the generator. */
  inside: number;
  cpu: number;
  maxRssMb: number;
  files: number;
  bytes: number;
  written: number;
  matrices: number;
}

async function child(data: string, out: string): Promise<void> {
  const { build } = await import('../generator/build.ts');
  const r = await build({ dataDir: data, outDir: out, baseUrl: 'http://localhost:8080' });
  const u = process.resourceUsage();
  const result: Omit<ChildResult, 'seconds'> = {
    inside: r.seconds,
    cpu: (u.userCPUTime + u.systemCPUTime) / 1e6,
    maxRssMb: u.maxRSS / 1024,
    files: r.files,
    bytes: r.bytes,
    written: r.written,
    matrices: r.matrices,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Flushes what earlier steps left in the page cache (a deleted site, the
 *  last build's writes), so that each timed step starts with a quiet disk:
 *  on this machine the same write takes 6 s or 48 s depending on it. */
const settle = () => execFileSync('sync');

function runBuild(data: string, out: string): ChildResult {
  settle();
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/bench.ts'), '--child', data, out], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop()!), seconds };
}

function floor(site: string, scratch: string): number {
  settle();
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/io-floor.ts'), site, scratch, 'keep'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim()).seconds;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs: number[], digits = 2, unit = '') => {
  const m = median(xs).toFixed(digits);
  return xs.length > 1 ? `${m}${unit} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]` : `${m}${unit}`;
};

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

interface Figures {
  label: string;
  matrices: number;
  full: ChildResult[];
  floor: number[];
  noop: ChildResult[];
  change: ChildResult[];
}

function measure(label: string, data: string, scratch: string, runs: number, log: (s: string) => void): Figures {
  // Every full build and floor copy gets a folder of its own, and nothing is
  // deleted until the end: this disk is mounted with online discard, and a
  // step that follows the deletion of a 140,000-file tree waits for it
  // (the same build took 24 s into new folders and 68–75 s after deleting
  // the previous one). Neither the build nor the floor pays for deletions;
  // main() deletes the scratch folder (about 16 GB at 10x) at the very end.
  const full: ChildResult[] = [];
  const floors: number[] = [];
  let out = '';
  for (let i = 0; i < runs; i++) {
    out = path.join(scratch, `site-${i}`);
    full.push(runBuild(data, out));
    log(`${label}: full build ${i + 1}/${runs}: ${full[i].seconds.toFixed(1)} s`);
    floors.push(floor(out, path.join(scratch, `floor-${i}`)));
    log(`${label}: I/O floor ${i + 1}/${runs}: ${floors[i].toFixed(1)} s`);
  }
  const noop: ChildResult[] = [];
  for (let i = 0; i < runs; i++) noop.push(runBuild(data, out));
  log(`${label}: no-op rebuilds done`);
  const changer = oneMatrixChanger(data);
  const change: ChildResult[] = [];
  for (let i = 0; i < runs; i++) {
    changer.change();
    change.push(runBuild(data, out));
  }
  log(`${label}: one-matrix-changed rebuilds (${changer.id}) done`);
  return { label, matrices: full[0].matrices, full, floor: floors, noop, change };
}

function report(f: Figures): string[] {
  const wall = f.full.map((r) => r.seconds);
  const ratio = median(wall) / median(f.floor);
  const r0 = f.full[0];
  return [
    `${f.label}: ${f.matrices} matrices, ${r0.files} files, ${(r0.bytes / 1e6).toFixed(0)} MB (+ files added after the plan: mirror archive, manifest)`,
    `  full build     wall ${fmt(wall, 1, ' s')}  cpu ${fmt(f.full.map((r) => r.cpu), 1, ' s')}  peak RSS ${fmt(f.full.map((r) => r.maxRssMb), 0, ' MB')}  ${fmt(f.full.map((r) => r.files / r.seconds), 0)} files/s`,
    `  I/O floor      wall ${fmt(f.floor, 1, ' s')}  build/floor ${ratio.toFixed(2)}`,
    `  no-op rebuild  wall ${fmt(f.noop.map((r) => r.seconds), 2, ' s')} (in build() ${fmt(f.noop.map((r) => r.inside), 2, ' s')}, the rest is starting Node and tsx)  rewritten ${fmt(f.noop.map((r) => r.written), 0)}  peak RSS ${fmt(f.noop.map((r) => r.maxRssMb), 0, ' MB')}`,
    `  one matrix     wall ${fmt(f.change.map((r) => r.seconds), 1, ' s')} (in build() ${fmt(f.change.map((r) => r.inside), 1, ' s')})  rewritten ${fmt(f.change.map((r) => r.written), 0)}`,
  ];
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2]);
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      'scale-runs': { type: 'string', default: '1' },
      times: { type: 'string', default: '10' },
      data: { type: 'string', default: path.resolve(ROOT, 'data/jaspar-2024') },
      scratch: { type: 'string' },
    },
  });
  const scratch = mkdtempSync(path.join(values.scratch ?? os.tmpdir(), 'jaspar-bench-'));
  const log = (s: string) => process.stderr.write(`  … ${s}\n`);
  const lines: string[] = [];
  try {
    const load = os.loadavg()[0];
    // A writable copy of the release: the one-matrix-changed rebuild edits it.
    const real = path.join(scratch, 'release');
    cpSync(values.data, real, { recursive: true });
    const one = measure('1x', real, path.join(scratch, 'one'), Number(values.runs), log);
    // --times 1 measures the real release only.
    const times = Number(values.times);
    const perMatrix = (f: Figures) => median(f.full.map((r) => r.seconds)) / f.matrices;
    lines.push(
      `bench ${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ${os.availableParallelism()} cores, load ${load.toFixed(1)} at start; median [min–max] of ${values.runs} runs${times > 1 ? ` (${values['scale-runs']} at ${times}x)` : ''}`,
      ...report(one),
    );
    if (times > 1) {
      const { makeSyntheticRelease } = await import('./synthetic-release.ts');
      const synthetic = path.join(scratch, `synthetic-${times}x`);
      makeSyntheticRelease(values.data, synthetic, times);
      const big = measure(`${times}x (synthetic)`, synthetic, path.join(scratch, 'big'), Number(values['scale-runs']), log);
      lines.push(
        ...report(big),
        `per-matrix cost: 1x ${(perMatrix(one) * 1000).toFixed(2)} ms, ${times}x ${(perMatrix(big) * 1000).toFixed(2)} ms → ${(perMatrix(big) / perMatrix(one)).toFixed(2)}x`,
      );
    }
    lines.push(`load at the end ${os.loadavg()[0].toFixed(1)}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
