// What the test configs share (vitest.config.ts for `npm test`,
// vitest.full.config.ts for `npm run test:full`): which suite runs where.

/**
 * Suites that read the site built by test/global-setup.ts (inject('siteDir')),
 * serve it or drive Chromium over it. Their expected values come from the
 * release folders the site was built from (test/support/paths.ts), so each
 * runs on the fixture site (`npm test`) and on the full one (`npm run test:full`).
 */
export const SITE_SUITES = [
  'test/e2e/{clients-netlify,http-server,links,list-links-netlify,netlify-routing,security-headers}.test.ts',
  'test/browser/{browse,people}.test.ts',
  'test/hosts/conformance.test.ts',
  'test/site/**/*.test.ts',
  'test/build/{determinism,figures}.test.ts',
  'test/mirror/{bulk,mirror}.test.ts',
  'test/edge/{compact,engines,engines-grid,handler-files,handler-oracle,hostile,release-2026}.test.ts',
  'test/clients/**/*.test.ts',
  'test/server/**/*.test.ts',
];

/**
 * Suites without the built site that build small releases through the CLI,
 * start servers or Chromium, or run long (the loader's property-based
 * fuzzing, every matrix of the release through every format).
 */
export const SLOW_SUITES = [
  'test/e2e/{base-path-and-shards,path-links}.test.ts',
  'test/browser/escaping.test.ts',
  'test/hosts/prefix-shards.test.ts',
  'test/build/{bad-input,incremental,incremental-equals-full,input-files,problem-report,sharding,start}.test.ts',
  'test/fuzz/{cli,dataset}.test.ts',
  'test/formats/{roundtrip,hostile}.test.ts',
  'test/mirror/tar.test.ts',
  'test/write/incremental*.test.ts',
  'test/dataset/official-2026.test.ts',
];

/**
 * Only on the full release (`npm run test:full`): what depends on its size
 * (Netlify's 1,000 rules, archives under 100 MB, the README figures), the
 * bundles compared whole with JASPAR's own, rbioapi's calls and the build of
 * JASPAR's whole 2026 files.
 */
export const FULL_SUITES = [
  'test/build/figures.test.ts',
  'test/mirror/bulk.test.ts',
  // rbioapi's 28 calls and its exact lists (which calls are right, which give the same data in both releases,
  // FOX finding 151 matrices in 2024 and 128 in 2026) are about the full releases' data.
  'test/clients/rbioapi.test.ts',
  // A build of the whole of JASPAR's 2026 files through the CLI, written back bundle for bundle (128,000 files;
  // `npm test` builds the fixture's 2026 folder, JASPAR's own files cut by record, and test/edge/release-2026.test.ts
  // checks its records byte for byte).
  'test/build/official-cli.test.ts',
];

export const shared = {
  // A test's time limit: on a host about twice as slow as the one before it (2026-11-28), with the other suites running
  // beside it, Chromium's keyboard test on http-server ran past 60 s (17 s on netlify dev just before) and its journey
  // took 59.9 s, so 60 s failed tests that were only slow. A hung test still fails, three minutes in; a test with a limit of its own keeps it.
  testTimeout: 180_000,
  hookTimeout: 300_000,
  pool: 'forks' as const,
};

/** Two cores: at most two test files at a time, across the projects. */
export const pool = { poolOptions: { forks: { maxForks: 2, minForks: 1 } } };

/** A project over the site test/global-setup.ts builds: every file waits for it (test/support/site-ready.ts). */
export const siteSetup = {
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/support/event-loop.ts', 'test/support/site-ready.ts'],
};
