// A SYNTHETIC release N times the size of a real one, for measuring the
// build at scale (scripts/bench.ts). It is N relabelled copies of the real
// release, so every distribution the build cares about is the real one:
// name lengths, matrix widths and counts, versions per base id, share of
// matrices with sites and their BED sizes, collections, taxonomic groups,
// species and annotations. Only the ids change: copy c of base id MA0004 is
// Z?nnnn, numbered through the Z prefix (ZA0000…ZC9899 for 10 × 2989 base
// ids), so a synthetic id can never pass for a JASPAR one. The folder gets a
// SYNTHETIC-README.txt saying what it is. Written at run time, to a
// temporary folder: it is derived from CC BY data and never committed.
//
//   node --import tsx scripts/synthetic-release.ts --from data/jaspar-2024 --to /tmp/jaspar-10x --times 10
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';

export const SYNTHETIC_PREFIX = 'Z';

/** The base id of copy `copy` of a real base id: Z?nnnn, numbered through the Z prefix in the real base ids' sorted order. */
export function syntheticBaseIds(realBaseIds: Iterable<string>, times: number): (copy: number, baseId: string) => string {
  const baseIds = [...new Set(realBaseIds)].sort();
  if (baseIds.length * times > 26 * 10_000) throw new Error(`${times} copies need more than the Z prefix's 260,000 base ids`);
  const baseIndex = new Map(baseIds.map((b, i) => [b, i]));
  return (copy, baseId) => {
    const n = copy * baseIds.length + baseIndex.get(baseId)!;
    return `${SYNTHETIC_PREFIX}${String.fromCharCode(65 + Math.floor(n / 10_000))}${String(n % 10_000).padStart(4, '0')}`;
  };
}

/** The synthetic release in memory, from a loaded real one: the same matrices under the ids makeSyntheticRelease writes
 *  (for what depends on the ids only, such as the routing rules; no files). */
export function syntheticMatrices<M extends { matrixId: string; baseId: string; version: number }>(matrices: readonly M[], times: number): M[] {
  const newBase = syntheticBaseIds(matrices.map((m) => m.baseId), times);
  const out: M[] = [];
  for (let copy = 0; copy < times; copy++) {
    for (const m of matrices) {
      const baseId = newBase(copy, m.baseId);
      out.push({ ...m, baseId, matrixId: `${baseId}.${m.version}` });
    }
  }
  return out;
}

/** Writes the synthetic release into `to` (replaced); returns its number of matrices. */
export function makeSyntheticRelease(from: string, to: string, times: number): number {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(path.join(to, 'matrices'), { recursive: true });
  const csvText = readFileSync(path.join(from, 'matrices.csv'), 'utf8');
  const rows = parse(csvText, { relax_column_count: false }) as string[][];
  const header = rows[0];
  const col = (name: string) => header.indexOf(name);
  const [iId, iBase, iVersion] = [col('matrix_id'), col('base_id'), col('version')];
  const newBase = syntheticBaseIds(rows.slice(1).map((r) => r[iBase]), times);

  const noninteger = existsSync(path.join(from, 'pfm_noninteger.json'))
    ? (JSON.parse(readFileSync(path.join(from, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>)
    : null;
  const sitesFrom = path.join(from, 'sites');
  const hasSites = new Set(existsSync(sitesFrom) ? readdirSync(sitesFrom).filter((n) => n.endsWith('.bed')).map((n) => n.slice(0, -4)) : []);
  if (hasSites.size > 0) mkdirSync(path.join(to, 'sites'));

  const out: string[] = [csvLine(header)];
  const precise: Record<string, unknown> = {};
  let count = 0;
  for (let copy = 0; copy < times; copy++) {
    for (const row of rows.slice(1)) {
      const id = row[iId];
      const base = newBase(copy, row[iBase]);
      const newId = `${base}.${row[iVersion]}`;
      const copyRow = [...row];
      copyRow[iId] = newId;
      copyRow[iBase] = base;
      out.push(csvLine(copyRow));
      const jaspar = readFileSync(path.join(from, 'matrices', `${id}.jaspar`), 'utf8');
      writeFileSync(path.join(to, 'matrices', `${newId}.jaspar`), jaspar.replace(/^>\S+/, `>${newId}`));
      if (noninteger && id in noninteger) precise[newId] = noninteger[id];
      if (hasSites.has(id)) copyFileSync(path.join(sitesFrom, `${id}.bed`), path.join(to, 'sites', `${newId}.bed`));
      count++;
    }
  }
  writeFileSync(path.join(to, 'matrices.csv'), `${out.join('\n')}\n`);
  if (noninteger) writeFileSync(path.join(to, 'pfm_noninteger.json'), `${JSON.stringify(precise)}\n`);
  writeFileSync(path.join(to, 'SYNTHETIC-README.txt'), `SYNTHETIC DATA, NOT A JASPAR RELEASE.
${times} relabelled copies of ${path.resolve(from)} (${count} matrices), made by
scripts/synthetic-release.ts to measure the static API build at scale. Ids
start with "${SYNTHETIC_PREFIX}" (ZA0000.1, …); every other value is copied from the real
release (JASPAR, CC BY 4.0). Do not publish or cite it as data.
`);
  return count;
}

/** RFC 4180: quote a field with a comma, quote or line break; double the quotes. */
function csvLine(fields: string[]): string {
  return fields.map((f) => (/[",\n\r]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, times: { type: 'string' } } });
  if (!values.from || !values.to) {
    process.stderr.write('usage: node --import tsx scripts/synthetic-release.ts --from RELEASE --to DIR [--times 10]\n');
    process.exit(2);
  }
  const n = makeSyntheticRelease(values.from, values.to, Number(values.times ?? 10));
  process.stdout.write(`${n} synthetic matrices in ${values.to}\n`);
}
