// Property-based tests (fast-check) of the loader and every renderer, in
// process. Two properties:
//  1. a real release (12 matrices of the shared one) with one to three
//     random corruptions (truncation, swapped columns or rows, wrong row and
//     field counts, NaN/Infinity/negative/huge/tiny counts, invalid UTF-8,
//     Latin-1, CRLF, BOM, empty files, duplicate headers, hostile strings…)
//     is either refused with clean file:line diagnostics (on the file and line
//     the corruption hit, when there is one) or built into a site that says
//     exactly what the files say;
//  2. a random valid release (random names and annotations from the whole of
//     Unicode minus controls, collections and taxonomic groups from plain identifiers, random counts up to 2^53, full-precision counts
//     through pfm_noninteger.json, BED files) always builds, and every
//     resource parses back, in every format, to what the files say.
// FUZZ_RUNS scales both (default 400 and 120 cases); FUZZ_SEED replays a run.
// The number of cases, how they ended and the time are printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { FORBIDDEN_CHARACTER, MAX_COUNT } from '../../generator/dataset/text.ts';
import { BASES } from '../../generator/dataset/types.ts';
import { pyFixed } from '../../generator/dataset/numbers.ts';
import { KIND_NAMES, baseFiles, corrupt, specArb, writeFiles, type Kind } from './corrupt.ts';
import type { Files } from './oracle.ts';
import { runCase } from './run.ts';
import { turn } from '../support/run.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false });

let root: string;
let base: Files;
const tally = { cases: 0, built: 0, rejected: 0, problems: 0, ms: 0, slowest: 0 };
const byKind = new Map<Kind, { built: number; rejected: number }>();

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-fuzz-'));
  base = baseFiles();
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  const kinds = [...byKind].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k} ${v.built}/${v.rejected}`).join(', ');
  console.log(`fuzz (dataset, in process): ${tally.cases} cases, ${tally.built} built and checked, ${tally.rejected} refused with ${tally.problems} diagnostics; ${(tally.ms / 1000).toFixed(1)} s in the loader and planner, slowest case ${tally.slowest.toFixed(0)} ms\n  by corruption (built/refused, single-corruption cases): ${kinds}`);
});

function record(result: { outcome: 'built' | 'rejected'; ms: number; problems: unknown[] }, kind?: Kind): void {
  tally.cases++;
  tally[result.outcome]++;
  tally.problems += result.problems.length;
  tally.ms += result.ms;
  tally.slowest = Math.max(tally.slowest, result.ms);
  if (kind) {
    const k = byKind.get(kind) ?? { built: 0, rejected: 0 };
    k[result.outcome]++;
    byKind.set(kind, k);
  }
}

describe('fuzzed releases', () => {
  it(`a corrupted real release is refused with file:line diagnostics or built exactly as its files say (${RUNS} cases)`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 3 }), async (specs) => {
        await turn(); // the cases are synchronous: one turn of the event loop each (test/support/event-loop.ts)
        const files = new Map(base);
        const expectation = corrupt(files, specs);
        const dir = path.join(root, `case-${n++}`);
        writeFiles(files, dir);
        try {
          record(runCase(dir, files, expectation, JSON.stringify(specs)), specs.length === 1 ? specs[0].kind : undefined);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(RUNS),
    );
  }, 300_000);

  it('every single corruption kind, once each, ends as it must', async () => {
    for (const [i, kind] of KIND_NAMES.entries()) {
      await turn();
      const files = new Map(base);
      const spec = { kind, a: 7 * i + 3, b: 131 * i + 17, value: 'NaN' };
      const expectation = corrupt(files, [spec]);
      const dir = path.join(root, `kind-${kind}`);
      writeFiles(files, dir);
      try {
        record(runCase(dir, files, expectation, JSON.stringify(spec)), kind);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  // ---------------------------------------------------------- valid random releases

  const text = (max: number) => fc.string({ unit: 'grapheme', maxLength: max }).map((s) => s.replace(new RegExp(FORBIDDEN_CHARACTER, 'g'), ''));
  const cell = fc.oneof(text(12), fc.constantFrom('<script>alert(1)</script>', `'"&`, '../x', '𝔄 🧬', 'עברית', 'e\u0301', 'null', '1e3', '- x', 'a: b', '#x'));
  const listCell = fc.array(cell.map((s) => s.replace(/;/g, '').trim()), { maxLength: 3 }).map((items) => items.join(';'));
  const count = fc.oneof(
    { weight: 4, arbitrary: fc.nat({ max: 1000 }) },
    { weight: 2, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(0, 0.5, 1.5, 2.5, 682.5, 1e-5, 1.5e-7, 1 / 3, MAX_COUNT, 2 ** 52 + 0.5, 1e15) },
    { weight: 1, arbitrary: fc.double({ min: 0, max: MAX_COUNT, noNaN: true }) },
  );
  const matrixArb = fc.record({
    base: fc.nat({ max: 20 }),
    version: fc.integer({ min: 1, max: 3 }),
    name: cell.filter((s) => s.trim() !== ''),
    collection: fc.constantFrom('CORE', 'UNVALIDATED', 'PBM_HOMEO', 'CNE', 'x-1'),
    taxGroup: fc.constantFrom('', 'vertebrates', 'plants', 'insects', 'fungi'),
    tfClass: listCell,
    tfFamily: listCell,
    dataType: cell,
    species: fc.array(fc.tuple(cell.map((s) => s.replace(/;/g, '').trim()), fc.nat({ max: 99999 })), { maxLength: 3 }),
    uniprot: listCell,
    pubmed: listCell,
    source: cell,
    comment: cell,
    width: fc.integer({ min: 1, max: 25 }),
    counts: fc.array(count, { minLength: 100, maxLength: 100 }),
    sites: fc.option(fc.array(fc.tuple(fc.nat({ max: 1000 }), fc.nat({ max: 50 }), fc.boolean()), { maxLength: 5 })),
  });

  type RandomMatrix = typeof matrixArb extends fc.Arbitrary<infer T> ? T : never;

  /** A release folder saying exactly these matrices. */
  function releaseFiles(matrices: RandomMatrix[]): Files {
    const files: Files = new Map();
    const header = 'matrix_id,base_id,version,collection,name,tax_group,tf_class,tf_family,data_type,species,tax_ids,uniprot_ids,pubmed_ids,source,comment,metadata_from';
    const q = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    const rows: string[] = [];
    const precise: Record<string, { pfm: Record<string, number[]> }> = {};
    const seen = new Set<string>();
    for (const m of matrices) {
      const baseId = `MA${String(m.base).padStart(4, '0')}`;
      const id = `${baseId}.${m.version}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const species = m.species.filter(([s]) => s !== '');
      rows.push([id, baseId, String(m.version), m.collection, m.name, m.taxGroup, m.tfClass, m.tfFamily, m.dataType,
        species.map(([s]) => s).join(';'), species.map(([, t]) => t).join(';'), m.uniprot, m.pubmed, m.source, m.comment, 'fuzz'].map(q).join(','));
      const pfm = Object.fromEntries(BASES.map((b, i) => [b, m.counts.slice(i * m.width, (i + 1) * m.width)]));
      const rounded = (v: number) => pyFixed(v, 0);
      files.set(`matrices/${id}.jaspar`, Buffer.from(`>${id}\t${m.name}\n${BASES.map((b) => `${b}  [${pfm[b].map((v) => rounded(v).padStart(6)).join(' ')} ]`).join('\n')}\n`));
      if (BASES.some((b) => pfm[b].some((v) => !Number.isInteger(v)))) precise[id] = { pfm };
      if (m.sites) files.set(`sites/${id}.bed`, Buffer.from(m.sites.map(([start, len, plus]) => `chr1\t${start}\t${start + len}\tsite\t.\t${plus ? '+' : '-'}\n`).join('')));
    }
    files.set('matrices.csv', Buffer.from(`${[header, ...rows].join('\n')}\n`));
    files.set('pfm_noninteger.json', Buffer.from(JSON.stringify(precise, null, 1)));
    return files;
  }

  const VALID_RUNS = Math.max(10, Math.round(RUNS * 0.3));
  it(`a random valid release builds, and every resource in every format says what its files say (${VALID_RUNS} cases)`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(matrixArb, { minLength: 1, maxLength: 14 }), async (matrices) => {
        await turn();
        const files = releaseFiles(matrices);
        const dir = path.join(root, `valid-${n++}`);
        writeFiles(files, dir);
        try {
          record(runCase(dir, files, { outcome: 'accept' }, `valid release ${JSON.stringify(matrices).slice(0, 2000)}`));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      params(VALID_RUNS),
    );
  }, 300_000);
});
