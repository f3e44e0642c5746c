// rbioapi (R), one of the most used clients of the JASPAR REST API, runs its
// own JASPAR calls (test/clients/rbioapi/calls.json: the 28 request shapes
// it offers) against the DRF oracle and against the mirror on Netlify's
// engine (`netlify dev`), twice on the mirror: with release = 2024 as
// calls.json gives it, and with rbioapi's default release (no `release`
// argument: rbioapi sends release=2026). Each call's digest of the data
// rbioapi returned is compared with the reference: the oracle's digest (JASPAR
// 2024 only), or one computed from the release asked for
// (rbioapi-expected.ts, in a child process: rbioapi-references.ts). It prints
// the table call × (oracle, mirror) for each release and "N of 28 succeed
// with the right data", and fails when the set of right calls is not
// MIRROR_RIGHT of that release.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { siteDataDirs } from '../support/paths.ts';
import { runScript } from '../support/run.ts';
import type { RunningServer } from '../support/servers.ts';
import { startOracle } from '../support/oracle.ts';
import { startEdgeServer } from '../support/edge-servers.ts';
import { RBIOAPI_DIR, rbioapiLibrary } from './r-library.ts';
import type { Args, Digest } from './rbioapi-expected.ts';
import type { References } from './rbioapi-references.ts';

// ---- what passes today: update these when the mirror learns more ----------
type Year = 2024 | 2026;
/** The release rbioapi 0.8.3.9000 asks for when given none (`release = 2026` in every rba_jaspar_* function that sends one). */
const RBIOAPI_DEFAULT: Year = 2026;
/**
 * The calls that get the right data from the mirror (netlify dev with the
 * edge function), for each release asked: the test fails both when one of
 * these stops being right and when another becomes right, so that these
 * lists stay exact. 2024: all but tffm_search and tffm (the release has no
 * TFFM data). 2026 (rbioapi's default): the same; the calls that send no
 * release (releases, release_10, matrix_versions, sites, the matrix in every
 * format) are the same requests as with 2024 and answered by the default
 * release, 2024.
 */
const ALL_BUT_TFFM = [
  'collections', 'collections_matrices', 'taxons', 'taxons_matrices', 'species', 'species_matrices', 'releases', 'release_10',
  'matrix_versions', 'sites', 'matrix_json', 'matrix_yaml', 'matrix_jaspar', 'matrix_transfac', 'matrix_pfm', 'matrix_meme',
  'search_term', 'search_tf_name', 'search_tf_class', 'search_tf_family', 'search_tax_group', 'search_tax_ids', 'search_data_type',
  'search_collection', 'search_latest', 'search_order',
];
const MIRROR_RIGHT: Record<Year, Set<string>> = { 2024: new Set(ALL_BUT_TFFM), 2026: new Set(ALL_BUT_TFFM) };
/** At least this many of the 28 must be right in each release: all but the two TFFM calls (no release has TFFM data here). */
const MIN_RIGHT = 26;
/**
 * rbioapi's TFFM calls and the status the mirror refuses each with, in both
 * releases: it holds no TFFM data, and /api/v1/tffm/ and everything under it
 * (the search, /api/v1/tffm/?release=…&search=FOX, and a profile,
 * /api/v1/tffm/TFFM0056.3/) answer 404 with a detail naming TFFM, which
 * rbioapi shows (it shows the body of a 4xx only: a 501 reached the user as
 * "HTTP Status '501' (Server Error: Not Implemented)").
 */
const TFFM_REFUSED: Record<string, number> = { tffm_search: 404, tffm: 404 };
/** Whether the error rbioapi shows for a TFFM call says why (names TFFM): the mirror's 404 for /api/v1/tffm/ does (routes/urls.ts ABSENT_ENDPOINTS). */
const TFFM_REFUSAL_SAYS_WHY = true;

/**
 * Calls that send release=2026 whose 2026 reference equals their 2024 one
 * (the same 46 species; FOXP3 is MA0850.1 in both; one Zipper-Type matrix):
 * their being right does not show which release answered. Every other call
 * that sends a release has a 2026 reference unlike its 2024 one. Exact, so
 * that a change in the data either way is seen.
 */
const SAME_IN_BOTH_RELEASES = ['species', 'search_tf_name', 'search_tf_class'];

// ---- where each call's reference comes from --------------------------------
/**
 * oracle: the DRF oracle's answer (JASPAR 2024); release: computed from the
 * release asked for; same-request: a call that sends no release, identical
 * to its 2024 run (the default release answers it); none: no data.
 */
type Reference = 'oracle' | 'release' | 'same-request' | 'none';
/** Calls whose reference in the 2024 run is not the oracle's answer (every other counted call's is), and why. */
const REFERENCE: Record<string, { from: Reference; why: string; oracleAs?: string }> = {
  collections: { from: 'release', why: 'the oracle has no /collections/' },
  collections_matrices: { from: 'release', why: 'the oracle has no /collections/<name>/' },
  taxons: { from: 'release', why: 'the oracle has no /taxon/' },
  taxons_matrices: { from: 'release', why: 'the oracle has no /taxon/<group>/' },
  species: { from: 'release', why: 'the oracle has no /species/' },
  species_matrices: { from: 'release', why: 'the oracle has no /species/<tax_id>/' },
  releases: { from: 'release', why: 'the oracle has no /releases/' },
  release_10: { from: 'release', why: 'the oracle has no /releases/<n>/' },
  sites: { from: 'release', why: 'the oracle has no /sites/<id>/' },
  search_tf_class: { from: 'release', why: 'the oracle filters class=, ignores tf_class=', oracleAs: 'class' },
  search_tf_family: { from: 'release', why: 'the oracle filters family=, ignores tf_family=', oracleAs: 'family' },
  search_data_type: { from: 'release', why: 'the oracle filters type=, ignores data_type=', oracleAs: 'type' },
  tffm_search: { from: 'none', why: 'the release has no TFFM data' },
  tffm: { from: 'none', why: 'the release has no TFFM data' },
};
/** Calls whose release-derived reference must equal the oracle's answer on 2024: the computed search semantics (rbioapi-expected.ts) checked against views.py. */
const CHECKED_AGAINST_ORACLE = ['search_term', 'search_tf_name', 'search_tax_group', 'search_tax_ids', 'search_collection', 'search_latest', 'search_order'];
/**
 * Calls the oracle cannot answer as rbioapi sends them, and the oracle's own
 * query for the same selection and page: the release-derived reference must
 * equal its answer.
 */
const ORACLE_AS: Record<string, (args: Args) => string> = {
  search_tf_class: (a) => `class=${encodeURIComponent(String(a.tf_class))}&page_size=1000`,
  search_tf_family: (a) => `family=${encodeURIComponent(String(a.tf_family))}&page_size=1000`,
  search_data_type: (a) => `type=${encodeURIComponent(String(a.data_type))}&page_size=1000`,
  collections_matrices: (a) => `collection=${String(a.collection)}&page_size=${String(a.page_size)}&page=${String(a.page ?? 1)}`,
  taxons_matrices: (a) => `tax_group=${String(a.tax_group)}&page_size=${String(a.page_size)}&page=${String(a.page ?? 1)}`,
  species_matrices: (a) => `tax_id=${String(a.tax_id)}&page_size=${String(a.page_size)}&page=${String(a.page ?? 1)}`,
};

interface Call {
  name: string;
  fn: string;
  args: Args;
  digest: string;
  counted?: boolean;
}
interface Outcome {
  name: string;
  ok: boolean;
  error?: string;
  request?: string;
  accept?: string;
  status?: number;
  type?: string;
  ms: number;
  digest?: Digest;
}
interface Run {
  year: Year;
  calls: Call[];
  outcomes: Map<string, Outcome>;
  references: Map<string, { from: Reference; digest?: Digest }>;
}

const CALLS_FILE = path.join(RBIOAPI_DIR, 'calls.json');
const CALLS = (JSON.parse(readFileSync(CALLS_FILE, 'utf8')) as { calls: Call[] }).calls;
const COUNTED = CALLS.filter((c) => c.counted !== false);
/** The 28 with rbioapi's default release: no `release` argument. */
const DEFAULT_CALLS = COUNTED.map(({ args: { release: _release, ...args }, ...call }) => ({ ...call, args }));
const sendsRelease = (call: Call) => call.args.release !== undefined;
const siteDir = inject('siteDir');
const run = promisify(execFile);
/** The mirror under test: Netlify's engine (netlify dev, offline) with the edge function (generator/edge/) in front of the files. */
const startMirror = () => startEdgeServer('netlify', siteDir);

/** Runs calls.R with one calls file against one server; one Outcome per call, by name. */
async function runCalls(library: string, callsFile: string, count: number, origin: string, label: string, work: string): Promise<Map<string, Outcome>> {
  const started = performance.now();
  const { stdout, stderr } = await run('Rscript', [path.join(RBIOAPI_DIR, 'calls.R'), callsFile, `${origin}/`, path.join(work, label)], {
    env: { ...process.env, R_LIBS: library, R_LIBS_USER: library },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 600_000,
  });
  const outcomes = new Map<string, Outcome>();
  for (const line of stdout.split('\n')) if (line.startsWith('{')) {
    const outcome = JSON.parse(line) as Outcome;
    outcomes.set(outcome.name, outcome);
  }
  if (outcomes.size !== count) throw new Error(`calls.R against ${label} printed ${outcomes.size} of ${count} calls:\n${stdout}\n${stderr}`);
  process.stdout.write(`rbioapi against ${label}: ${count} calls in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return outcomes;
}

/** The release-derived digest of every call for every release of the site, computed in a child process (rbioapi-references.ts). */
async function releaseReferences(): Promise<References> {
  const ran = await runScript('test/clients/rbioapi-references.ts', [CALLS_FILE, ...siteDataDirs()], { timeout: 300_000 });
  if (ran.status !== 0) throw new Error(`rbioapi-references.ts failed (${ran.status ?? ran.signal}):\n${ran.stderr.slice(-2000)}`);
  return JSON.parse(ran.stdout) as References;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const brief = (o: Outcome) => (o.ok ? `${o.status} ${o.type?.split(';')[0] ?? ''}` : `fails: ${(o.error ?? '').replace(/\s+/g, ' ').slice(0, 70)}`);

let oracle: RunningServer | undefined;
let mirror: RunningServer | undefined;
let work: string;
let fromOracle: Map<string, Outcome>;
let computed: References;
const runs = {} as Record<Year, Run>;

/** A call's release-derived digest for one release; throws with why when there is none. */
function computedDigest(year: Year, name: string): Digest {
  const reference = computed[String(year)]?.[name];
  if (reference === undefined) throw new Error(`no references computed for JASPAR ${year}: is it a release of the site (${siteDataDirs().join(', ')})?`);
  if ('none' in reference) throw new Error(`${name}: no release-derived digest for JASPAR ${year}: ${reference.none}`);
  return reference.digest;
}

beforeAll(async () => {
  const started = performance.now();
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
  const references = releaseReferences();
  const library = await rbioapiLibrary();
  process.stdout.write(`rbioapi library ready in ${seconds(started)}\n`);
  work = mkdtempSync(path.join(os.tmpdir(), 'jaspar-rbioapi-'));
  const defaultCalls = path.join(work, 'calls-default-release.json');
  writeFileSync(defaultCalls, `${JSON.stringify({ calls: DEFAULT_CALLS })}\n`);
  const timed = async <T>(label: string, start: () => Promise<T>) => {
    const from = performance.now();
    const server = await start();
    process.stdout.write(`${label} started in ${seconds(from)}\n`);
    return server;
  };
  [oracle, mirror] = await Promise.all([timed('oracle', startOracle), timed('mirror', startMirror)]);
  let from2024: Map<string, Outcome>;
  let from2026: Map<string, Outcome>;
  [fromOracle, from2024, from2026, computed] = await Promise.all([
    runCalls(library, CALLS_FILE, CALLS.length, oracle.origin, 'oracle', work),
    runCalls(library, CALLS_FILE, CALLS.length, mirror.origin, 'mirror-2024', work),
    runCalls(library, defaultCalls, DEFAULT_CALLS.length, mirror.origin, 'mirror-default-release', work),
    references,
  ]);
  const refs2024 = new Map<string, { from: Reference; digest?: Digest }>();
  for (const call of COUNTED) {
    const from = REFERENCE[call.name]?.from ?? 'oracle';
    refs2024.set(call.name, { from, digest: from === 'oracle' ? fromOracle.get(call.name)!.digest : from === 'release' ? computedDigest(2024, call.name) : undefined });
  }
  runs[2024] = { year: 2024, calls: COUNTED, outcomes: from2024, references: refs2024 };
  const refs2026 = new Map<string, { from: Reference; digest?: Digest }>();
  for (const call of COUNTED) {
    const before = refs2024.get(call.name)!;
    if (before.from === 'none') refs2026.set(call.name, before);
    else if (sendsRelease(call)) refs2026.set(call.name, { from: 'release', digest: computedDigest(RBIOAPI_DEFAULT, call.name) });
    else refs2026.set(call.name, { from: 'same-request', digest: before.digest });
  }
  runs[2026] = { year: RBIOAPI_DEFAULT, calls: DEFAULT_CALLS, outcomes: from2026, references: refs2026 };
  process.stdout.write(`rbioapi suite set up in ${seconds(started)}\n`);
}, 900_000);

afterAll(async () => {
  await Promise.all([oracle?.stop(), mirror?.stop()]);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Whether the mirror's answer to a call is the right data, in one run. */
function right(run: Run, name: string): boolean {
  const reference = run.references.get(name)!;
  const outcome = run.outcomes.get(name)!;
  return reference.from !== 'none' && outcome.ok && same(outcome.digest, reference.digest);
}

/** Prints the run's table call × (oracle, mirror) and its count; returns the count of right calls. */
function printTable(run: Run): number {
  const rows = COUNTED.map((c) => {
    const reference = run.references.get(c.name)!;
    const o = fromOracle.get(c.name)!;
    const m = run.outcomes.get(c.name)!;
    const verdict = reference.from === 'none' ? 'cannot (no data)' : right(run, c.name) ? 'RIGHT' : m.ok ? 'WRONG DATA' : 'FAILS';
    const from = reference.from === 'release' ? `release ${run.year}` : reference.from === 'same-request' ? 'as with 2024' : reference.from;
    return { call: c.name, request: `${m.request ?? ''}${m.accept && m.accept !== 'application/json' ? ` [Accept: ${m.accept}]` : ''}`, reference: from, oracle: run.year === 2024 ? brief(o) : '-', mirror: brief(m), verdict };
  });
  const width = (key: keyof (typeof rows)[number]) => Math.max(key.length, ...rows.map((r) => r[key].length));
  const keys = ['call', 'verdict', 'reference', 'oracle', 'mirror', 'request'] as const;
  const line = (r: Record<string, string>) => keys.map((k) => r[k].padEnd(width(k))).join(' | ');
  const rightCount = COUNTED.filter((c) => right(run, c.name)).length;
  const answered = COUNTED.filter((c) => run.outcomes.get(c.name)!.ok).length;
  const asked = run.year === 2024 ? 'release = 2024' : `rbioapi's default release (${run.year})`;
  process.stdout.write([
    '',
    `rbioapi with ${asked}:`,
    line(Object.fromEntries(keys.map((k) => [k, k]))),
    keys.map((k) => '-'.repeat(width(k))).join('-|-'),
    ...rows.map(line),
    '',
    `rbioapi on the mirror (netlify dev) with ${asked}: ${rightCount} of ${COUNTED.length} succeed with the right data (${answered} of ${COUNTED.length} return without an error)`,
    '',
  ].join('\n'));
  return rightCount;
}

/** The run's right calls are exactly MIRROR_RIGHT of its release, and at least MIN_RIGHT. */
function expectExactlyRight(run: Run): void {
  const rightCount = printTable(run);
  const nowRight = new Set(COUNTED.filter((c) => right(run, c.name)).map((c) => c.name));
  const expected = MIRROR_RIGHT[run.year];
  const broken = [...expected].filter((name) => !nowRight.has(name)).map((name) => `${name}: ${brief(run.outcomes.get(name)!)} ${JSON.stringify(run.outcomes.get(name)!.digest ?? null)} expected ${JSON.stringify(run.references.get(name)!.digest ?? null)}`);
  const newlyRight = [...nowRight].filter((name) => !expected.has(name));
  expect(broken, `calls in MIRROR_RIGHT[${run.year}] that no longer get the right data`).toEqual([]);
  expect(newlyRight, `calls that now get the right data: add them to MIRROR_RIGHT[${run.year}] (and raise MIN_RIGHT)`).toEqual([]);
  expect(rightCount).toBeGreaterThanOrEqual(MIN_RIGHT);
}

describe('rbioapi against the oracle and the mirror on netlify dev', () => {
  it('lists 28 calls, each once, and the same 28 with rbioapi\'s default release', () => {
    expect(COUNTED).toHaveLength(28);
    expect(new Set(CALLS.map((c) => c.name)).size).toBe(CALLS.length);
    for (const name of Object.keys(REFERENCE)) expect(COUNTED.map((c) => c.name)).toContain(name);
    expect(DEFAULT_CALLS.map((c) => c.name)).toEqual(COUNTED.map((c) => c.name));
    expect(DEFAULT_CALLS.filter(sendsRelease)).toEqual([]);
    // The 2024 run names its release wherever rbioapi takes one.
    expect(COUNTED.filter(sendsRelease).map((c) => c.args.release)).toEqual(COUNTED.filter(sendsRelease).map(() => 2024));
  });

  it('the oracle answers every call it is the reference for', () => {
    const failed = COUNTED.filter((c) => runs[2024].references.get(c.name)!.from === 'oracle' && !fromOracle.get(c.name)!.ok)
      .map((c) => `${c.name}: ${fromOracle.get(c.name)!.error}`);
    expect(failed).toEqual([]);
    // Where the release is the reference and the oracle answers too, it must
    // agree, except where it ignores a parameter rbioapi sends (tf_class…).
    const disagree = COUNTED.filter((c) => runs[2024].references.get(c.name)!.from === 'release' && fromOracle.get(c.name)!.ok && !REFERENCE[c.name].oracleAs)
      .filter((c) => !same(fromOracle.get(c.name)!.digest, runs[2024].references.get(c.name)!.digest)).map((c) => c.name);
    expect(disagree).toEqual([]);
  });

  it('the references computed from a release (search, name, tax group and ids, collection, latest versions, order) equal the oracle\'s answers on 2024', () => {
    // The 2026 references rest on these semantics (there is no 2026 oracle):
    // each is checked here where the oracle can answer the same call.
    const problems = CHECKED_AGAINST_ORACLE.flatMap((name) => {
      const oracleOutcome = fromOracle.get(name)!;
      if (!oracleOutcome.ok) return [`${name}: the oracle fails: ${oracleOutcome.error}`];
      const digest = computedDigest(2024, name);
      return same(oracleOutcome.digest, digest) ? [] : [`${name}: oracle ${JSON.stringify(oracleOutcome.digest)}, release ${JSON.stringify(digest)}`];
    });
    expect(problems).toEqual([]);
    // So is rbioapi's default-release search, on 2024 (the oracle ignores release=).
    expect(fromOracle.get('default_release')!.digest).toEqual(computedDigest(2024, 'default_release'));
  });

  it('the oracle, asked with its own parameters (class, family, type; the list filtered as /collections/, /taxon/, /species/ are), selects what the release-derived reference expects', async () => {
    const problems: string[] = [];
    for (const call of COUNTED) {
      const oracleQuery = ORACLE_AS[call.name];
      if (!oracleQuery) continue;
      const query = oracleQuery(call.args);
      const response = await fetch(`${oracle!.origin}/api/v1/matrix/?${query}`);
      const body = (await response.json()) as { count: number; results: { matrix_id: string }[] };
      const ids = body.results.map((r) => r.matrix_id);
      const digest = { count: body.count, rows: ids.length, first: ids.slice(0, 3), last: ids.at(-1) ?? '', ids_md5: createHash('md5').update(ids.join('\n')).digest('hex') };
      if (!same(digest, runs[2024].references.get(call.name)!.digest)) problems.push(`${call.name} (as ${query}): oracle ${JSON.stringify(digest)}, release ${JSON.stringify(runs[2024].references.get(call.name)!.digest)}`);
    }
    expect(problems).toEqual([]);
    expect(Object.keys(ORACLE_AS).filter((name) => !COUNTED.some((c) => c.name === name))).toEqual([]);
  });

  it('with release = 2024: prints the table and the count, and the mirror gets the right data for exactly MIRROR_RIGHT[2024]', () => {
    expectExactlyRight(runs[2024]);
  });

  it(`with rbioapi's default release (${RBIOAPI_DEFAULT}): every call that takes a release sends release=${RBIOAPI_DEFAULT}, every other one the same request as with 2024`, () => {
    const run = runs[RBIOAPI_DEFAULT];
    const wrong = COUNTED.flatMap((call) => {
      const request = run.outcomes.get(call.name)!.request ?? '';
      const release = new URL(request, 'http://x').searchParams.getAll('release');
      if (sendsRelease(call)) return same(release, [String(RBIOAPI_DEFAULT)]) ? [] : [`${call.name}: ${request}`];
      return request === runs[2024].outcomes.get(call.name)!.request && release.length === 0 ? [] : [`${call.name}: ${request} (with 2024: ${runs[2024].outcomes.get(call.name)!.request})`];
    });
    expect(wrong).toEqual([]);
  });

  it(`with rbioapi's default release (${RBIOAPI_DEFAULT}): prints the table and the count, and the mirror gets the right data for exactly MIRROR_RIGHT[${RBIOAPI_DEFAULT}]`, () => {
    expectExactlyRight(runs[RBIOAPI_DEFAULT]);
  });

  it(`the calls that send release=${RBIOAPI_DEFAULT} tell the releases apart, but for exactly SAME_IN_BOTH_RELEASES`, () => {
    const same2024 = DEFAULT_CALLS.filter((c) => runs[RBIOAPI_DEFAULT].references.get(c.name)!.from === 'release')
      .filter((c) => same(computedDigest(RBIOAPI_DEFAULT, c.name), computedDigest(2024, c.name))).map((c) => c.name);
    expect(same2024).toEqual(SAME_IN_BOTH_RELEASES);
  });

  it('the TFFM calls are refused in both releases (TFFM_REFUSED), and whether the error says why is TFFM_REFUSAL_SAYS_WHY', () => {
    for (const year of [2024, RBIOAPI_DEFAULT] as const) {
      for (const [name, status] of Object.entries(TFFM_REFUSED)) {
        const outcome = runs[year].outcomes.get(name)!;
        expect(outcome.ok, `${name} (${year}) answered: ${JSON.stringify(outcome.digest)}`).toBe(false);
        expect(outcome.status, `${name} (${year})`).toBe(status);
        process.stdout.write(`${name} (${year}): ${outcome.status ?? ''} ${(outcome.error ?? '').replace(/\s+/g, ' ')}\n`);
        expect(/TFFM/i.test(outcome.error ?? ''), `${name} (${year}): the error rbioapi shows: ${outcome.error}`).toBe(TFFM_REFUSAL_SAYS_WHY);
      }
    }
  });

  it(`rbioapi's default release (${RBIOAPI_DEFAULT}) is answered with ${RBIOAPI_DEFAULT} data`, () => {
    const outcome = runs[2024].outcomes.get('default_release')!;
    process.stdout.write(`default release (${RBIOAPI_DEFAULT}), uncounted search term=FOX: ${brief(outcome)} ${JSON.stringify(outcome.digest ?? null)}\n`);
    expect(outcome.request).toMatch(new RegExp(`[?&]release=${RBIOAPI_DEFAULT}(&|$)`));
    expect(outcome.ok, outcome.error).toBe(true);
    expect(outcome.digest).toEqual(computedDigest(RBIOAPI_DEFAULT, 'default_release'));
    // Not 2024's answer in disguise: the two releases differ for this search.
    expect(computedDigest(RBIOAPI_DEFAULT, 'default_release')).not.toEqual(computedDigest(2024, 'default_release'));
  });

  it(`release number 11 is JASPAR ${RBIOAPI_DEFAULT} with its matrices`, () => {
    const outcome = runs[2024].outcomes.get('release_11')!;
    expect(outcome.ok, outcome.error).toBe(true);
    expect(outcome.digest).toEqual(computedDigest(RBIOAPI_DEFAULT, 'release_11'));
  });

  it(`JASPAR ${RBIOAPI_DEFAULT}'s UNVALIDATED collection, which the mirror does not hold, is refused with a 404 whose error says so`, () => {
    const outcome = runs[2024].outcomes.get('unvalidated_default_release')!;
    process.stdout.write(`default release (${RBIOAPI_DEFAULT}), uncounted UNVALIDATED collection: ${outcome.status ?? ''} ${(outcome.error ?? '').replace(/\s+/g, ' ')}\n`);
    expect(outcome.request).toMatch(new RegExp(`[?&]release=${RBIOAPI_DEFAULT}(&|$)`));
    expect(outcome.ok, `answered with data: ${JSON.stringify(outcome.digest)}`).toBe(false);
    expect(outcome.status).toBe(404);
    expect(outcome.error).toMatch(/UNVALIDATED collection is not mirrored/);
    // None of the 28 needs it: the counted calls name no UNVALIDATED collection or UN matrix.
    expect(COUNTED.filter((c) => /UNVALIDATED|^UN\d/.test(Object.values(c.args).map(String).join(' '))).map((c) => c.name)).toEqual([]);
  });
});
