import { defineConfig } from 'vitest/config';

/**
 * Suites that need the full build (inject('siteDir')), build releases
 * through the CLI, start servers, drive Chromium, or run for long (the
 * property-based fuzzing of the loader, every matrix of the release through
 * every format: 20-50 s each). Everything else is a unit test: no build,
 * runs first and finishes in seconds.
 */
const SITE_SUITES = [
  'test/e2e/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/hosts/{conformance,prefix-shards}.test.ts',
  'test/site/**/*.test.ts',
  'test/build/**/*.test.ts',
  'test/fuzz/{cli,dataset}.test.ts',
  'test/formats/roundtrip.test.ts',
  'test/formats/hostile.test.ts',
  'test/mirror/{bulk,mirror,tar}.test.ts',
  'test/write/incremental.test.ts',
  'test/edge/{compact,engines,engines-grid,handler-files,handler-oracle,hostile,release-2026}.test.ts',
  'test/clients/**/*.test.ts',
  'test/dataset/official-2026.test.ts',
  'test/server/**/*.test.ts',
];

const shared = {
  testTimeout: 60_000,
  hookTimeout: 300_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Two cores: at most two test files at a time, across both projects.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: SITE_SUITES,
          // Runs before the "site" group (Vitest runs groups in ascending order).
          sequence: { groupOrder: 0 },
          setupFiles: ['test/support/event-loop.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'site',
          include: SITE_SUITES,
          // The full release is built once for every suite that needs it, in the
          // background while the unit tests run (test/global-setup.ts); each file
          // waits for it (test/support/site-ready.ts).
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/support/event-loop.ts', 'test/support/site-ready.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
