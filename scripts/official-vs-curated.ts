// npx tsx scripts/official-vs-curated.ts [OFFICIAL_DIR] [CURATED_DIR]: reads a
// folder of JASPAR's download files and the curated release and prints what
// differs for the same ids, field by field (generator/dataset/official/compare.ts),
// with the time each read takes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { PROJECT_ROOT } from '../generator/build.ts';
import { readReleaseInfo } from '../generator/dataset/release-yaml.ts';
import { readRelease } from '../generator/dataset/read.ts';
import { compareReleases, describeDiff } from '../generator/dataset/official/compare.ts';

const official = process.argv[2] ?? path.join(PROJECT_ROOT, 'data/jaspar-2024/sources');
const curated = process.argv[3] ?? path.join(PROJECT_ROOT, 'data/jaspar-2024');
const file = path.join(PROJECT_ROOT, 'data/release-2024.yaml');
const info = readReleaseInfo(readFileSync(file, 'utf8'), (t) => yaml.load(t), file);
const timed = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const value = f();
  return [value, (performance.now() - t) / 1000];
};
const [a, ta] = timed(() => readRelease(official, info));
const [b, tb] = timed(() => readRelease(curated, info));
process.stdout.write(`read ${path.relative(process.cwd(), official)} in ${ta.toFixed(2)} s, ${path.relative(process.cwd(), curated)} in ${tb.toFixed(2)} s\n`);
for (const note of a.notes) process.stdout.write(`note: ${note}\n`);
const names: [string, string] = ['official', 'curated'];
process.stdout.write(`${describeDiff(compareReleases(a.release, b.release), a.release, b.release, names).join('\n')}\n`);
