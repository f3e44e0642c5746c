import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.ts';
import { FULL_SUITES, SITE_SUITES, SLOW_SUITES, pool, shared, siteSetup } from './vitest.shared.ts';

/**
 * `npm test`: in at most 5 minutes on two cores (issue 21).
 * - unit: no build, runs first and finishes in seconds;
 * - site: the suites that read a built site or serve it (end-to-end, hosts,
 *   engines, browser, clients), on the fixture site, about 100 matrices of
 *   each release cut from data/ and built in seconds in the background while
 *   the unit tests run (test/global-setup.ts, test/support/fixture-site.ts);
 * - slow: builds through the CLI, the loader's fuzzing, every matrix through
 *   every format: no site, run beside the site group.
 * What only the full release proves (sizes, host limits, JASPAR's own full
 * bundles) is `npm run test:full` (vitest.full.config.ts).
 */
export default defineConfig({
  test: {
    ...pool,
    // Longest files first (test/support/sequencer.ts), so that the two forks end together.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...SITE_SUITES, ...SLOW_SUITES, ...FULL_SUITES],
          // Runs before the other groups (Vitest runs groups in ascending order).
          sequence: { groupOrder: 0 },
          setupFiles: ['test/support/event-loop.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'site',
          include: SITE_SUITES,
          exclude: FULL_SUITES,
          ...siteSetup,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'slow',
          include: SLOW_SUITES,
          exclude: FULL_SUITES,
          setupFiles: ['test/support/event-loop.ts'],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
