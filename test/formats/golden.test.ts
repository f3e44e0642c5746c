// Our text formats against real JASPAR output (test/golden/formats and
// the official bundles in test/golden/jaspar-2018), byte for byte.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEME_HEADER } from '../../generator/formats/meme.ts';
import { GOLDEN, JASPAR_2018, dataDir } from '../support/paths.ts';
import { matrix, releaseInfo, renderDetail, sharedRelease, transfacAsIn2024 } from '../support/release.ts';

const golden = (file: string) => readFileSync(path.join(GOLDEN, file), 'utf8');

describe('golden files', () => {
  it.each(['MA0004.1', 'MA0002.2', 'MA0074.1', 'MA1972.1', 'MA2191.1'])('jaspar %s (2024 bundle record)', (id) => {
    expect(renderDetail(matrix(id), 'jaspar')).toBe(golden(`jaspar2024/${id}.jaspar`));
  });

  it('jaspar MA2191.1 rounds 682.5 to 682 and 87.5 to 88 (ties to even), from full-precision counts', () => {
    const m = matrix('MA2191.1');
    expect(m.pfm.A[1]).toBe(682.5);
    expect(renderDetail(m, 'jaspar')).toContain('A  [   476    682 ');
  });

  it.each(['MA0004.1', 'MA0074.1', 'MA1972.1', 'MA2191.1'])('transfac %s (2024 export record)', (id) => {
    expect(renderDetail(matrix(id), 'transfac')).toBe(golden(`jaspar2024/${id}.transfac`));
  });

  it.each(['MA0004.1', 'MA0074.1'])('jaspar and meme %s (2018 records, same names)', (id) => {
    expect(renderDetail(matrix(id), 'jaspar')).toBe(golden(`jaspar2018/${id}.jaspar`));
    expect(renderDetail(matrix(id), 'meme')).toBe(MEME_HEADER + golden(`jaspar2018/${id}.meme`));
  });

  it('meme header is the one of JASPAR bundles', () => {
    expect(golden('bundles/JASPAR2018_CORE_non-redundant_pfms_meme.head2.txt').startsWith(MEME_HEADER)).toBe(true);
  });

  it('transfac with the 2018 DE line matches the 2018 record up to the CC lines', () => {
    const info = { ...releaseInfo(), transfacFrom: 'From JASPAR 2018' };
    const ours = renderDetail(matrix('MA0004.1'), 'transfac', info);
    const theirs = golden('jaspar2018/MA0004.1.transfac');
    expect(ours.slice(0, ours.indexOf('CC '))).toBe(theirs.slice(0, theirs.indexOf('//')));
  });

  it('pfm: ">ID NAME" and "%6.2f" values joined by one space', () => {
    expect(renderDetail(matrix('MA0004.1'), 'pfm')).toBe(
      '>MA0004.1 Arnt\n' +
        '  4.00  19.00   0.00   0.00   0.00   0.00\n' +
        ' 16.00   0.00  20.00   0.00   0.00   0.00\n' +
        '  0.00   1.00   0.00  20.00   0.00  20.00\n' +
        '  0.00   0.00   0.00   0.00  20.00   0.00\n',
    );
    expect(renderDetail(matrix('MA1972.1'), 'pfm').split('\n')[1].startsWith('137.74 118.63 994.43   0.80 ')).toBe(true);
  });

  it('bed of a matrix is its release BED file byte for byte; empty without sites', () => {
    expect(renderDetail(matrix('MA0014.2'), 'bed')).toBe(readFileSync(path.join(dataDir(), 'sites/MA0014.2.bed'), 'utf8'));
    expect(renderDetail(matrix('MA0004.1'), 'bed')).toBe('');
  });
});

/** Splits a bundle into records starting with `marker` (kept). */
function records(text: string, marker: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  const starts = [...text.matchAll(marker)].map((m) => m.index ?? 0);
  starts.forEach((start, i) => {
    const record = text.slice(start, starts[i + 1] ?? text.length);
    const id = /^(?:>|AC |MOTIF )(\S+)/.exec(record)![1];
    out.set(id, record);
  });
  return out;
}

describe('official bundles, every record', () => {
  const sources = path.join(dataDir(), 'sources');

  it('JASPAR 2024 CORE redundant jaspar bundle: all 4279 records', () => {
    const bundle = records(readFileSync(path.join(sources, 'JASPAR2024_CORE_redundant_pfms_jaspar.txt'), 'utf8'), /^>/gm);
    expect(bundle.size).toBe(4279);
    const mismatched = [...bundle].filter(([id, text]) => renderDetail(matrix(id), 'jaspar') !== text).map(([id]) => id);
    expect(mismatched).toEqual([]);
  });

  it('JASPAR 2024 UNVALIDATED jaspar bundle: all 643 records', () => {
    const bundle = records(readFileSync(path.join(sources, 'JASPAR2024_UNVALIDATED_non-redundant_pfms_jaspar.txt'), 'utf8'), /^>/gm);
    expect(bundle.size).toBe(643);
    const mismatched = [...bundle].filter(([id, text]) => renderDetail(matrix(id), 'jaspar') !== text).map(([id]) => id);
    expect(mismatched).toEqual([]);
  });

  it('JASPAR 2024 TRANSFAC exports (six taxa): all 2345 records, CC lines included', () => {
    const files = readdirSync(sources).filter((f) => f.endsWith('_transfac.txt'));
    const all = new Map<string, string>();
    for (const f of files) for (const [id, text] of records(readFileSync(path.join(sources, f), 'utf8'), /^AC /gm)) all.set(id, text);
    expect(all.size).toBe(2345);
    const mismatched = [...all].filter(([id, text]) => transfacAsIn2024(id, renderDetail(matrix(id), 'transfac')) !== text).map(([id]) => id);
    expect(mismatched).toEqual([]);
    // The CC values the release fills from JASPAR's 2026 table are the only differences: each
    // record they touch differs from the 2024 export in those lines and nowhere else.
    const filledRecords = [...all].filter(([id, text]) => renderDetail(matrix(id), 'transfac') !== text).map(([id]) => id);
    expect(filledRecords.sort()).toEqual(['MA0506.3', 'MA0988.2', 'MA1011.2', 'MA1021.2', 'MA1188.1', 'MA1618.2']);
  });

  it('JASPAR 2018 CORE MEME bundle: every record whose matrix kept its name and counts', () => {
    const core2018 = path.join(JASPAR_2018, 'CORE');
    const text = readFileSync(path.join(core2018, 'JASPAR2018_CORE_redundant_pfms_meme.txt'), 'utf8');
    expect(text.startsWith(MEME_HEADER)).toBe(true);
    const bundle = records(text, /^MOTIF /gm);
    // The same matrix in 2018's jaspar bundle tells whether name and (rounded) counts are unchanged.
    // A few matrices hold fractional counts in JASPAR's database that the 2024 release gives only
    // rounded (e.g. MA1153.1: 88.23 in the 2018 flat file, 88 in the .jaspar): their MEME
    // probabilities differ in the last digits, so they are left out here.
    const jaspar2018 = records(readFileSync(path.join(core2018, 'JASPAR2018_CORE_redundant_pfms_jaspar.txt'), 'utf8'), /^>/gm);
    const flatFile = (id: string) => path.join(JASPAR_2018, 'all_data/FlatFileDir', `${id}.pfm`);
    const fractional = (id: string) => existsSync(flatFile(id)) && /\.(?!0+\b)\d/.test(readFileSync(flatFile(id), 'utf8'));
    const known = new Map(sharedRelease().matrices.map((m) => [m.matrixId, m]));
    const precise = JSON.parse(readFileSync(path.join(dataDir(), 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>;
    let compared = 0;
    const mismatched: string[] = [];
    for (const [id, record] of bundle) {
      const m = known.get(id);
      if (!m || jaspar2018.get(id) !== renderDetail(m, 'jaspar') || (fractional(id) && !(id in precise))) continue;
      compared++;
      if (renderDetail(m, 'meme') !== MEME_HEADER + record) mismatched.push(id);
    }
    expect(compared).toBeGreaterThan(1300);
    expect(mismatched).toEqual([]);
  });
});
