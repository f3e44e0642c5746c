// Round trip: for every matrix of the release, parse our own jaspar,
// transfac, pfm and meme output back and recover the id, the name and the
// counts as exactly as each format allows: transfac exactly (Python float
// repr round-trips), jaspar to the integer, pfm to 2 decimals, meme the
// per-column probabilities to 6 decimals.
import { describe, expect, it } from 'vitest';
import { BASES, type Matrix, type Pfm } from '../../generator/dataset/types.ts';
import { MEME_HEADER } from '../../generator/formats/meme.ts';
import { pyFixed } from '../../generator/dataset/numbers.ts';
import { renderDetail, sharedRelease } from '../support/release.ts';

interface Parsed {
  id: string;
  name: string;
  pfm: Pfm;
}

function parseJaspar(text: string): Parsed {
  const lines = text.split('\n');
  const [, id, name] = /^>(\S+)\t(.*)$/.exec(lines[0])!;
  const pfm = {} as Pfm;
  BASES.forEach((b, i) => {
    const m = new RegExp(`^${b}  \\[(.*) \\]$`).exec(lines[i + 1])!;
    pfm[b] = m[1].trim().split(/\s+/).map(Number);
  });
  expect(lines.slice(5)).toEqual(['']);
  return { id, name, pfm };
}

function parseTransfac(text: string): Parsed {
  const lines = text.split('\n');
  const id = /^AC (.*)$/.exec(lines[0])![1];
  const name = /^ID (.*)$/.exec(lines[2])![1];
  expect(lines[5]).toBe('PO\tA\tC\tG\tT');
  const pfm: Pfm = { A: [], C: [], G: [], T: [] };
  for (const line of lines.slice(6)) {
    if (line === 'XX') break;
    const [pos, ...values] = line.split('\t');
    expect(Number(pos)).toBe(pfm.A.length + 1);
    BASES.forEach((b, i) => pfm[b].push(Number(values[i])));
  }
  expect(lines.at(-2)).toBe('//');
  return { id, name, pfm };
}

function parsePfm(text: string): Parsed {
  const lines = text.split('\n');
  const [, id, name] = /^>(\S+) (.*)$/.exec(lines[0])!;
  const pfm = {} as Pfm;
  BASES.forEach((b, i) => {
    pfm[b] = lines[i + 1].trim().split(/ +/).map(Number);
  });
  return { id, name, pfm };
}

function parseMeme(text: string): Parsed & { nsites: number } {
  expect(text.startsWith(MEME_HEADER)).toBe(true);
  const lines = text.slice(MEME_HEADER.length).split('\n');
  const [, id, name] = /^MOTIF (\S+) (.*)$/.exec(lines[0])!;
  const [, w, nsites] = /^letter-probability matrix: alength= 4 w= (\d+) nsites= (\d+) E= 0$/.exec(lines[1])!;
  const pfm: Pfm = { A: [], C: [], G: [], T: [] };
  for (const line of lines.slice(2, 2 + Number(w))) {
    const values = line.trim().split(/ +/).map(Number);
    BASES.forEach((b, i) => pfm[b].push(values[i]));
  }
  expect(lines[2 + Number(w)]).toMatch(/^URL /);
  return { id, name, pfm, nsites: Number(nsites) };
}

const mapPfm = (pfm: Pfm, f: (v: number, b: (typeof BASES)[number], i: number) => number): Pfm =>
  Object.fromEntries(BASES.map((b) => [b, pfm[b].map((v, i) => f(v, b, i))])) as Pfm;

function probabilities(m: Matrix): Pfm {
  const totals = m.pfm.A.map((_, i) => BASES.reduce((s, b) => s + m.pfm[b][i], 0));
  return mapPfm(m.pfm, (v, _b, i) => (totals[i] > 0 ? v / totals[i] : 0.25));
}

describe('round trip of every matrix', () => {
  const matrices = sharedRelease().matrices;

  it(`transfac gives back every count exactly (${matrices.length} matrices)`, () => {
    for (const m of matrices) {
      const back = parseTransfac(renderDetail(m, 'transfac'));
      expect(back).toEqual({ id: m.matrixId, name: m.name, pfm: m.pfm });
    }
  });

  it('jaspar gives back the counts rounded half to even, exactly for integer matrices', () => {
    let integer = 0;
    for (const m of matrices) {
      const back = parseJaspar(renderDetail(m, 'jaspar'));
      expect(back.id).toBe(m.matrixId);
      expect(back.name).toBe(m.name);
      expect(back.pfm).toEqual(mapPfm(m.pfm, (v) => Number(pyFixed(v, 0))));
      if (BASES.every((b) => m.pfm[b].every(Number.isInteger))) {
        integer++;
        expect(back.pfm).toEqual(m.pfm);
      }
    }
    expect(integer).toBeGreaterThan(5000);
  });

  it('pfm gives back the counts to 2 decimals', () => {
    for (const m of matrices) {
      const back = parsePfm(renderDetail(m, 'pfm'));
      expect(back).toEqual({ id: m.matrixId, name: m.name, pfm: mapPfm(m.pfm, (v) => Number(pyFixed(v, 2))) });
      for (const b of BASES) back.pfm[b].forEach((v, i) => expect(Math.abs(v - m.pfm[b][i])).toBeLessThanOrEqual(0.005 + 1e-9));
    }
  });

  it('meme gives back each column\'s probabilities to 6 decimals and nsites', () => {
    for (const m of matrices) {
      const back = parseMeme(renderDetail(m, 'meme'));
      const p = probabilities(m);
      expect(back.id).toBe(m.matrixId);
      expect(back.name).toBe(m.name);
      expect(back.nsites).toBe(Math.trunc(BASES.reduce((s, b) => s + m.pfm[b][0], 0)));
      expect(back.pfm).toEqual(mapPfm(p, (v) => Number(pyFixed(v, 6))));
      for (const b of BASES) back.pfm[b].forEach((v, i) => expect(Math.abs(v - p[b][i])).toBeLessThanOrEqual(5e-7 + 1e-12));
    }
  });
});
