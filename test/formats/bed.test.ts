import { describe, expect, it } from 'vitest';
import { bedToBed6Slow, toBed6 } from '../../generator/formats/bed.ts';

// toBed6 scans lines itself; bedToBed6Slow is the rule as a regex (the code it replaced).
describe('toBed6', () => {
  it('pads BED4 lines to six fields and leaves BED6, comments, track and browser lines as they are', () => {
    const sites = 'track name=x\nbrowser position chr1\n# note\nchr1\t1\t2\tn\nchr1\t1\t2\tn\t0\t+\nchr2\t3\t4\tm\t5\n\nchr3\t5\t6';
    expect(toBed6(sites)).toBe('track name=x\nbrowser position chr1\n# note\nchr1\t1\t2\tn\t.\t.\nchr1\t1\t2\tn\t0\t+\nchr2\t3\t4\tm\t5\t.\n\nchr3\t5\t6\t.\t.\t.');
  });

  it('gives the regex rule\'s text for random texts of tabs, line breaks and prefixes', () => {
    const pieces = ['\t', '\n', 'chr1', '1', '#', 'track', 'browser', 'tr', ' ', '\r', '\u2028', '.', '\t\t\t\t\t', '\n\n'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      let text = '';
      const length = next() % 30;
      for (let i = 0; i < length; i++) text += pieces[next() % pieces.length];
      expect(toBed6(text), JSON.stringify(text)).toBe(bedToBed6Slow(text));
    }
  });

  it('returns a text with nothing to pad as it is', () => {
    const sites = 'chr1\t1\t2\tn\t0\t+\nchr1\t3\t4\tn\t0\t-\n';
    expect(toBed6(sites)).toBe(sites);
  });
});
