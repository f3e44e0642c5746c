// Folders are sharded only when a release would put more entries in one
// folder than Netlify accepts; the real release keeps its flat layout.
import { describe, expect, it } from 'vitest';
import { MAX_DIR_ENTRIES, SHARD_HEADROOM, chooseLayout, type Layout } from '../../generator/routes/shard.ts';
import { detailDir, logoPath, versionsDir } from '../../generator/routes/urls.ts';

describe('sharding', () => {
  /** n ids over `prefixes` (two letters each), numbered within each, versions .1. */
  const ids = (n: number, prefixes: string[]) => {
    const base = Array.from({ length: n }, (_, i) => `${prefixes[i % prefixes.length]}${String(Math.floor(i / prefixes.length)).padStart(4, '0')}`);
    return { matrixIds: base.map((b) => `${b}.1`), baseIds: base };
  };
  it.each([
    [5278, 2989, ['MA', 'UN', 'PB'], { idFolders: false, logos: false, shard: 0 }],
    [52_780, 29_890, ['ZA', 'ZB', 'ZC'], { idFolders: true, logos: false, shard: 2 }],
    [60_000, 30_000, ['ZA', 'ZB', 'ZC'], { idFolders: true, logos: true, shard: 2 }],
    [60_000, 30_000, ['ZA'], { idFolders: true, logos: true, shard: 3 }],
    [MAX_DIR_ENTRIES - SHARD_HEADROOM, 0, ['MA'], { idFolders: false, logos: false, shard: 0 }],
  ])('%i matrix ids, %i base ids over %j → %j', (matrices, bases, prefixes, layout) => {
    const m = ids(matrices, prefixes).matrixIds;
    expect(chooseLayout({ matrixIds: m, baseIds: ids(bases, prefixes).baseIds })).toEqual(layout);
  });

  it('keeps the real layout flat', () => {
    const layout = chooseLayout(ids(5278, ['MA', 'UN']));
    expect(detailDir(layout, 'MA0004.1')).toBe('/api/v1/matrix/MA0004.1/');
    expect(versionsDir(layout, 'MA0004')).toBe('/api/v1/matrix/MA0004/versions/');
    expect(logoPath(layout, 'MA0004.1')).toBe('/static/logos/svg/MA0004.1.svg');
  });

  it('puts a matrix and its base id in one shard folder of the first characters', () => {
    const layout: Layout = { idFolders: true, logos: true, shard: 4 };
    expect(detailDir(layout, 'MA0004.1')).toBe('/api/v1/matrix/MA00/MA0004.1/');
    expect(detailDir(layout, 'MA0004')).toBe('/api/v1/matrix/MA00/MA0004/');
    expect(versionsDir(layout, 'MA0004')).toBe('/api/v1/matrix/MA00/MA0004/versions/');
    expect(logoPath(layout, 'ZB1234.2')).toBe('/static/logos/svg/ZB12/ZB1234.2.svg');
  });
});
