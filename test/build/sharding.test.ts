// Folders are sharded only when a release would put more entries in one
// folder than Netlify accepts; the real release keeps its flat layout.
import { afterEach, describe, expect, it } from 'vitest';
import { FLAT, MAX_DIR_ENTRIES, SHARD_HEADROOM, chooseLayout, useLayout } from '../../generator/routes/shard.ts';
import { detailDir, logoPath, versionsDir } from '../../generator/routes/urls.ts';

afterEach(() => useLayout(FLAT));

describe('sharding', () => {
  it.each([
    [{ matrixIds: 5278, baseIds: 2989 }, { idFolders: false, logos: false }],
    [{ matrixIds: 52_780, baseIds: 29_890 }, { idFolders: true, logos: false }],
    [{ matrixIds: 60_000, baseIds: 30_000 }, { idFolders: true, logos: true }],
    [{ matrixIds: MAX_DIR_ENTRIES - SHARD_HEADROOM, baseIds: 0 }, { idFolders: false, logos: false }],
  ])('%j → %j', (counts, layout) => {
    expect(chooseLayout(counts)).toEqual(layout);
  });

  it('keeps the real layout flat', () => {
    useLayout(chooseLayout({ matrixIds: 5278, baseIds: 2989 }));
    expect(detailDir('MA0004.1')).toBe('/api/v1/matrix/MA0004.1/');
    expect(versionsDir('MA0004')).toBe('/api/v1/matrix/MA0004/versions/');
    expect(logoPath('MA0004.1')).toBe('/static/logos/svg/MA0004.1.svg');
  });

  it('puts a matrix and its base id in one shard folder of the first four characters', () => {
    useLayout({ idFolders: true, logos: true });
    expect(detailDir('MA0004.1')).toBe('/api/v1/matrix/MA00/MA0004.1/');
    expect(detailDir('MA0004')).toBe('/api/v1/matrix/MA00/MA0004/');
    expect(versionsDir('MA0004')).toBe('/api/v1/matrix/MA00/MA0004/versions/');
    expect(logoPath('ZB1234.2')).toBe('/static/logos/svg/ZB12/ZB1234.2.svg');
  });
});
