// The figures the README prints (scripts/figures.ts) against the tests' own
// build of the shipped releases: the file counts are the README's (bytes
// depend on the base URL, which differs), each release's archive stays under
// GitHub's 100 MB a file, and Netlify's rules under the 1,000 it advises.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { siteFigures } from '../../scripts/figures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const siteDir = inject('siteDir');

describe('the site\'s figures', () => {
  const figures = siteFigures(siteDir);

  it('one archive per release, each under 100 MB; Netlify rules under 1,000', () => {
    expect(figures.releases.map((r) => r.release)).toEqual(['default', '2026']);
    for (const r of figures.releases) {
      expect(r.archiveBytes, r.release).not.toBeNull();
      expect(r.archiveBytes!, r.release).toBeLessThan(100 * 1024 * 1024);
    }
    expect(figures.rules).toBeLessThanOrEqual(1000);
  });

  it('the README\'s figures block has this build\'s file counts', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const block = /<!-- figures: npm run figures -->\n([\s\S]*?)\n<!-- \/figures -->/.exec(readme);
    expect(block, 'README.md holds the block npm run figures prints').not.toBeNull();
    const counts = [...block![1].matchAll(/^\| [^|]+ \| ([0-9,]+) \|/gm)].map((m) => Number(m[1].replace(/,/g, '')));
    expect(counts).toEqual([...figures.releases.map((r) => r.files), figures.files]);
    expect(block![1]).toContain(`Netlify rules (_redirects): ${figures.rules}.`);
  });
});
