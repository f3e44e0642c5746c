// A merge of JASPAR's download files kept between builds (dataset/official/index.ts, under a key of everything it
// is made from but the older release's counts, which are compared apart): taken as it was while nothing changed,
// patched where only counts the older release gives alone changed, and made again from the files otherwise
// (a changed file, counts the merge checks the bundles' against), each time equal to a read without anything kept.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatasetError } from '../../generator/dataset/diagnostics.ts';
import { matrixDigest } from '../../generator/dataset/digest.ts';
import { ParsedFiles } from '../../generator/dataset/parsed-files.ts';
import { readRelease } from '../../generator/dataset/read.ts';
import type { ReleaseInfo } from '../../generator/dataset/types.ts';
import { addToFirstCount, makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT } from '../support/paths.ts';

const DATA_2026 = path.join(PROJECT_ROOT, 'data/jaspar-2026');
const VERTEBRATES_2026 = 'JASPAR2026_CORE_vertebrates_non-redundant_pfms_jaspar.txt';
const TABLE = 'ultimate_metadata_table_CORE.tsv';

/** The content hash of a file by its real path, as the build's fingerprint gives it (none for a file not there). */
const hashOf = (real: string): string | undefined => {
  try {
    return createHash('sha1').update(readFileSync(real)).digest('hex');
  } catch {
    return undefined;
  }
};

describe('a merge of download files kept between builds', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-merged-'));
  // JASPAR 2026's records of MA0004.1 and MA1972.1 (its bundle holds them: the merge checks 2024's counts against
  // them), and MA0002.2, which no 2026 bundle holds: its counts are 2024's alone.
  const dir2024 = makeRelease(['MA0004.1', 'MA0002.2', 'MA1972.1']);
  const dir2026 = path.join(root, 'jaspar-2026');
  mkdirSync(dir2026);
  const bundle = readFileSync(path.join(DATA_2026, VERTEBRATES_2026), 'utf8').split('\n');
  const records = ['MA0004.1', 'MA1972.1'].map((id) => bundle.slice(bundle.findIndex((l) => l.startsWith(`>${id}\t`)), bundle.findIndex((l) => l.startsWith(`>${id}\t`)) + 5).join('\n'));
  writeFileSync(path.join(dir2026, VERTEBRATES_2026), `${records.join('\n')}\n`);
  const table = readFileSync(path.join(DATA_2026, TABLE), 'utf8').split('\n');
  const tableFile = path.join(dir2026, TABLE);
  writeFileSync(tableFile, `${[table[0], ...['MA0004.1', 'MA1972.1', 'MA0002.2'].map((id) => table.find((l) => l.split('\t')[2] === id)!)].join('\n')}\n`);
  const info: ReleaseInfo = { name: 'JASPAR 2026', year: 2026, transfacFrom: 'From JASPAR', memeUrl: 'http://jaspar.elixir.no/matrix/{matrix_id}', number: 11, citation: '', license: '', collections: [], olderVersions: dir2024 };
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(dir2024, { recursive: true, force: true });
  });

  /** What a build keeps (the entries it used or made). */
  let kept: ReadonlyMap<string, unknown> = new Map();
  /** One build's read with what the previous one kept: equal to a read without; what it made anew. */
  function rebuild(): { made: string[]; used: string[] } {
    const parsed = new ParsedFiles(kept, hashOf, 4096);
    const read = readRelease(dir2026, info, new Map(), parsed);
    const fresh = readRelease(dir2026, info);
    expect(read.notes).toEqual(fresh.notes);
    expect(read.release.matrices).toEqual(fresh.release.matrices);
    // The digests a kept merge brings are those of the records read afresh.
    expect(read.release.matrices.map(matrixDigest)).toEqual(fresh.release.matrices.map(matrixDigest));
    const used = [...(parsed.toKeep() ?? kept).keys()];
    const made = used.filter((key) => !kept.has(key));
    kept = parsed.toKeep() ?? kept;
    return { made: made.map((k) => k.split('\0')[0]), used: used.map((k) => k.split('\0')[0]) };
  }

  it('is taken as it was, patched where only counts the older release gives alone changed, made again otherwise', () => {
    // The first build: every file parsed, and the merge kept beside them.
    expect(rebuild().made).toEqual(expect.arrayContaining(['official merged', 'official', 'jaspar']));
    // Nothing changed: the merge as it was, the download files not even taken as parsed.
    const same = rebuild();
    expect(same.made).toEqual([]);
    expect(same.used.filter((k) => k.startsWith('official'))).toEqual(['official merged']);
    // A count of MA0002.2 in 2024 (the version 2026 takes from there alone): the merge patched, nothing merged again.
    addToFirstCount(path.join(dir2024, 'matrices', 'MA0002.2.jaspar'));
    const patched = rebuild();
    expect(patched.made).toEqual(['jaspar']);
    expect(patched.used.filter((k) => k.startsWith('official'))).toEqual(['official merged']);
    // The metadata table edited (a family): merged again from the files.
    writeFileSync(tableFile, readFileSync(tableFile, 'utf8').replace('PAS domain factors', 'Edited family'));
    expect(rebuild().made).toEqual(expect.arrayContaining(['official merged', 'official']));
  });

  it('is not taken when what is kept under its key is not a merge (a file written over): read from the files', () => {
    const key = [...kept.keys()].find((k) => k.startsWith('official merged\0'))!;
    for (const value of ['not a merge', { matrices: [], notes: [], older: [null], alone: [], digests: [] }]) {
      kept = new Map([...kept].map(([k, v]) => [k, k === key ? value : v]));
      // Read as without anything kept (rebuild compares), and the merge kept again in its place.
      rebuild();
      expect((kept.get(key) as { matrices: unknown[] }).matrices).toHaveLength(3);
    }
  });

  it('is not taken when the older release changes counts the merge checks: the problem is found as without it', () => {
    addToFirstCount(path.join(dir2024, 'matrices', 'MA0004.1.jaspar'));
    const parsed = new ParsedFiles(kept, hashOf, 4096);
    expect(() => readRelease(dir2026, info, new Map(), parsed)).toThrow(DatasetError);
    expect(() => readRelease(dir2026, info)).toThrow(/MA0004\.1 has other counts here than in/);
    addToFirstCount(path.join(dir2024, 'matrices', 'MA0004.1.jaspar'), -1);
  });
});
