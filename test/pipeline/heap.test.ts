// A build's V8 flags by its size (generator/pipeline/heap.ts): none for the shipped site, whose CPU they
// cost; the heap's growth capped for a release the size of the 10x synthetic one, whose peak they hold
// under 1 GB; and every flag one this Node's V8 knows (v8.setFlagsFromString ignores others without a word).
import { describe, expect, it } from 'vitest';
import { LARGE_BUILD_MATRICES, LARGE_BUILD_V8_FLAGS, heapFlagsFor } from '../../generator/pipeline/heap.ts';
import { run } from '../support/run.ts';

describe('a build\'s V8 flags by its size', () => {
  it('sets none for the shipped two releases (9,850 matrices), the heap cap for the 10x synthetic release (52,780)', () => {
    expect(heapFlagsFor(9_850)).toEqual([]);
    expect(heapFlagsFor(LARGE_BUILD_MATRICES)).toEqual([]);
    expect(heapFlagsFor(LARGE_BUILD_MATRICES + 1)).toEqual(LARGE_BUILD_V8_FLAGS);
    expect(heapFlagsFor(52_780)).toContain('--heap-growing-percent=30');
  });

  it("sets only V8 flags this Node's V8 knows, with values of their type", async () => {
    const ran = await run(process.execPath, ['--v8-options']);
    expect(ran.status).toBe(0);
    expect(LARGE_BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    for (const flag of LARGE_BUILD_V8_FLAGS) {
      const [, name, value] = /^--([a-z0-9-]+)=(.*)$/.exec(flag) ?? [];
      expect(name, flag).toBeDefined();
      // --v8-options prints each flag as "  --name (what it does)" then "        type: int  default: --name=0".
      const type = new RegExp(`\\n  --${name} \\(.*\\)\\n\\s+type: (\\w+)`).exec(ran.stdout)?.[1];
      expect(type, `${name} among node --v8-options`).toBeDefined();
      if (type === 'int' || type === 'size_t') expect(value, flag).toMatch(/^\d+$/);
    }
  });
});
