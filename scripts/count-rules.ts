// Prints how many Netlify rules (_redirects) and header rules (_headers) the
// build writes for the 2024 release and for the synthetic release ten times
// larger (scripts/synthetic-release.ts), with the layout each gets (the 10x
// release is sharded): the rules come from the same functions the build
// calls, without building the site (seconds, not minutes).
//   npm exec tsx scripts/count-rules.ts [-- --times 10]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { routingInput } from '../generator/plan/api-extras.ts';
import { DEFAULT_DATA, DEFAULT_RELEASE_FILE } from '../generator/build.ts';
import { loadRelease, readReleaseInfo } from '../generator/dataset/load.ts';
import { headerRules } from '../generator/hosting/headers.ts';
import { redirectRules } from '../generator/hosting/rules.ts';
import { defaultPageCount } from '../generator/plan/resources.ts';
import { chooseLayout } from '../generator/routes/shard.ts';
import { makeSyntheticRelease } from './synthetic-release.ts';

/** Netlify's advice: under 10,000 rules, best under 1,000. */
const ADVICE = 1_000;

function count(label: string, dataDir: string): void {
  const info = readReleaseInfo(readFileSync(DEFAULT_RELEASE_FILE, 'utf8'), (t) => yaml.load(t), DEFAULT_RELEASE_FILE);
  const release = loadRelease(dataDir, info);
  const layout = chooseLayout({ matrixIds: release.matrices.map((m) => m.matrixId), baseIds: [...new Set(release.matrices.map((m) => m.baseId))] });
  const input = routingInput(release, defaultPageCount(release), layout);
  const rules = redirectRules(input);
  const placeholders = rules.filter((r) => /[:*]/.test(r.from) || Object.values(r.query ?? {}).some((v) => v.startsWith(':'))).length;
  console.log(`${label}: ${release.matrices.length} matrices, ${input.pageCount} list pages, layout ${JSON.stringify(layout)} (${input.shards?.length ?? 0} shards): ` +
    `${rules.length} redirect rules (${placeholders} with placeholders or splats, ${rules.length - placeholders} literal), ${headerRules().length} header rules; ` +
    `${rules.length <= ADVICE ? 'within' : 'above'} Netlify's advice of ${ADVICE}`);
}

const timesAt = process.argv.indexOf('--times');
const times = timesAt > 0 ? Number(process.argv[timesAt + 1]) : 10;
count('JASPAR 2024', DEFAULT_DATA);
const dir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-synthetic-'));
try {
  makeSyntheticRelease(DEFAULT_DATA, dir, times);
  count(`synthetic ${times}x`, dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
