// Prints how many Netlify rules (_redirects) and header rules (_headers) the
// build writes for the 2024 release and for the synthetic release ten times
// larger (scripts/synthetic-release.ts, its ids made in memory: the rules
// depend on the ids, the list's length and the year only), with the layout
// each gets (the 10x release is sharded): the rules come from the same
// functions the build calls, without building the site (seconds, not minutes).
//   npm exec tsx scripts/count-rules.ts [-- --times 10]
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { routingInput } from '../generator/docs/api-extras.ts';
import { DEFAULT_DATA, DEFAULT_RELEASE_FILE } from '../generator/build.ts';
import { loadRelease } from '../generator/dataset/curated.ts';
import { readReleaseInfo } from '../generator/dataset/release-yaml.ts';
import type { Release } from '../generator/dataset/types.ts';
import { headerRules } from '../generator/hosting/headers.ts';
import { RULE_BUDGET, redirectRules } from '../generator/hosting/rules.ts';
import { defaultPageCount } from '../generator/plan/resources.ts';
import { chooseLayout } from '../generator/routes/shard.ts';
import { syntheticMatrices } from './synthetic-release.ts';

function count(label: string, release: Release): void {
  const layout = chooseLayout({ matrixIds: release.matrices.map((m) => m.matrixId), baseIds: [...new Set(release.matrices.map((m) => m.baseId))] });
  const input = routingInput(release, defaultPageCount(release), layout);
  const rules = redirectRules(input);
  const placeholders = rules.filter((r) => /[:*]/.test(r.from) || Object.values(r.query ?? {}).some((v) => v.startsWith(':'))).length;
  console.log(`${label}: ${release.matrices.length} matrices, ${input.pageCount} list pages, layout ${JSON.stringify(layout)} (${input.shards?.length ?? 0} shards): ` +
    `${rules.length} redirect rules (${placeholders} with placeholders or splats, ${rules.length - placeholders} literal), ${headerRules().length} header rules; ` +
    `${rules.length <= RULE_BUDGET ? 'within' : 'above'} Netlify's advice of ${RULE_BUDGET}`);
}

const timesAt = process.argv.indexOf('--times');
const times = timesAt > 0 ? Number(process.argv[timesAt + 1]) : 10;
const info = readReleaseInfo(readFileSync(DEFAULT_RELEASE_FILE, 'utf8'), (t) => yaml.load(t), DEFAULT_RELEASE_FILE);
const release = loadRelease(DEFAULT_DATA, info);
count('JASPAR 2024', release);
count(`synthetic ${times}x`, { ...release, matrices: syntheticMatrices(release.matrices, times) });
