import { defineConfig } from 'vitest/config';
import { FULL_SUITES, pool, shared, siteSetup } from './vitest.shared.ts';

/**
 * `npm run test:full`: the full site of both shipped releases (285,000
 * files, built once in test/global-setup.ts, project "full"), for what only
 * its size proves (FULL_SUITES) and for one end-to-end pass of the suites
 * `npm test` runs on the fixture site (FULL_PASS).
 */
const FULL_PASS = [
  'test/site/**/*.test.ts',
  'test/build/determinism.test.ts',
  'test/edge/compact.test.ts',
  'test/e2e/links.test.ts',
  'test/hosts/conformance.test.ts',
  // The walks on nginx, Caddy, Apache and Netlify's files, axe at phone width (the file's top says why).
  'test/browser/people.test.ts',
  // axe on netlify dev (browse), the parameter grid's triples (clients-netlify).
  'test/browser/browse.test.ts',
  'test/e2e/clients-netlify.test.ts',
];

export default defineConfig({
  test: {
    ...pool,
    projects: [
      {
        test: {
          ...shared,
          name: 'full',
          include: [...FULL_SUITES, ...FULL_PASS],
          ...siteSetup,
        },
      },
    ],
  },
});
