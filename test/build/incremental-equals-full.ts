// The property behind incremental rebuilds (issue 22): after any edits to a
// release (a count changed, an annotation changed, a matrix added, a matrix
// removed), a rebuild of the previous build's folder holds exactly the bytes
// a build into a new folder writes, every file (the mirror archive, its
// checksum and manifest included), and no other file. Cases chain: each
// rebuilds the folder the previous case left, so an edit and its undoing,
// and edits after a removal, are covered too.
//
// Run as a child process by incremental-equals-full.test.ts (builds block
// the event loop); prints one JSON line: cases run, seconds, the failure.
//   node --import tsx test/build/incremental-equals-full.ts [--runs N] [--seed S]
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { build } from '../../generator/build.ts';
import { makeRelease } from '../support/fixtures.ts';
import { dataDir } from '../support/paths.ts';
import { treeSnapshot } from '../support/tree.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '12' }, seed: { type: 'string' } } });

/** Matrices a case may add: another version of a base id the fixture has (MA0014.1), new base ids, another collection and taxonomic groups. */
const EXTRA = ['MA0014.1', 'MA0001.1', 'MA0003.1', 'UN0084.1', 'MA0015.1'];
const SOURCE = dataDir();
const sourceRows = new Map(readFileSync(path.join(SOURCE, 'matrices.csv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => [l.split(',')[0], l]));
const sourcePrecise = JSON.parse(readFileSync(path.join(SOURCE, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>;

type Edit =
  | { kind: 'count'; pick: number; base: number; column: number; value: number }
  | { kind: 'annotation'; pick: number; field: 'name' | 'tax_group' | 'data_type'; value: string }
  | { kind: 'add'; pick: number }
  | { kind: 'remove'; pick: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('count' as const), pick: fc.nat(), base: fc.nat({ max: 3 }), column: fc.nat({ max: 30 }), value: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('name' as const), value: fc.constantFrom('Arnt', 'ZNF-x', 'RXRA::VDR') }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('tax_group' as const), value: fc.constantFrom('vertebrates', 'plants', 'insects') }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('data_type' as const), value: fc.constantFrom('ChIP-seq', 'SELEX') }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
);

const COLUMNS = ['matrix_id', 'base_id', 'version', 'collection', 'name', 'tax_group', 'tf_class', 'tf_family', 'data_type'];

/** The release folder as rows and files, edited in place. */
class Release {
  constructor(readonly dir: string) {}
  private csv(): { header: string; rows: string[] } {
    const [header, ...rows] = readFileSync(path.join(this.dir, 'matrices.csv'), 'utf8').split('\n').filter(Boolean);
    return { header, rows };
  }
  private save(header: string, rows: string[]): void {
    writeFileSync(path.join(this.dir, 'matrices.csv'), `${[header, ...rows].join('\n')}\n`);
  }
  private precise(): Record<string, unknown> {
    return JSON.parse(readFileSync(path.join(this.dir, 'pfm_noninteger.json'), 'utf8'));
  }
  ids(): string[] {
    return this.csv().rows.map((r) => r.split(',')[0]);
  }
  apply(e: Edit): void {
    const { header, rows } = this.csv();
    const ids = rows.map((r) => r.split(',')[0]);
    if (e.kind === 'add') {
      const absent = EXTRA.filter((id) => !ids.includes(id));
      if (absent.length === 0) return;
      const id = absent[e.pick % absent.length];
      this.save(header, [...rows, sourceRows.get(id)!]);
      copyFileSync(path.join(SOURCE, 'matrices', `${id}.jaspar`), path.join(this.dir, 'matrices', `${id}.jaspar`));
      if (existsSync(path.join(SOURCE, 'sites', `${id}.bed`))) copyFileSync(path.join(SOURCE, 'sites', `${id}.bed`), path.join(this.dir, 'sites', `${id}.bed`));
      if (sourcePrecise[id]) writeFileSync(path.join(this.dir, 'pfm_noninteger.json'), JSON.stringify({ ...this.precise(), [id]: sourcePrecise[id] }, null, 1));
      return;
    }
    if (e.kind === 'remove') {
      if (ids.length <= 2) return;
      const i = e.pick % ids.length;
      const id = ids[i];
      this.save(header, rows.filter((_, j) => j !== i));
      unlinkSync(path.join(this.dir, 'matrices', `${id}.jaspar`));
      rmSync(path.join(this.dir, 'sites', `${id}.bed`), { force: true });
      const precise = this.precise();
      delete precise[id];
      writeFileSync(path.join(this.dir, 'pfm_noninteger.json'), JSON.stringify(precise, null, 1));
      return;
    }
    if (e.kind === 'annotation') {
      const i = e.pick % rows.length;
      const cells = rows[i].split(',');
      cells[COLUMNS.indexOf(e.field)] = e.value;
      rows[i] = cells.join(',');
      this.save(header, rows);
      // The .jaspar header names the matrix too, and must agree.
      if (e.field === 'name') {
        const file = path.join(this.dir, 'matrices', `${cells[0]}.jaspar`);
        writeFileSync(file, readFileSync(file, 'utf8').replace(/^(>\S+\t).*$/m, `$1${e.value}`));
      }
      return;
    }
    // A count of a matrix whose counts are the .jaspar file's (full-precision counts must round to it).
    const precise = this.precise();
    const plain = ids.filter((id) => !precise[id]);
    if (plain.length === 0) return;
    const file = path.join(this.dir, 'matrices', `${plain[e.pick % plain.length]}.jaspar`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const row = 1 + e.base;
    lines[row] = lines[row].replace(/\[(.*)\]/, (_, inner: string) => {
      const counts = inner.trim().split(/\s+/);
      counts[e.column % counts.length] = String(e.value);
      return `[ ${counts.map((c) => c.padStart(5)).join(' ')} ]`;
    });
    writeFileSync(file, lines.join('\n'));
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-inc-property-'));
  const data = makeRelease();
  const release = new Release(data);
  const options = (outDir: string) => ({ dataDir: data, outDir, baseUrl: 'http://localhost:8080', workers: 0 });
  const incremental = path.join(root, 'incremental');
  let cases = 0;
  let failure: string | null = null;
  try {
    await build(options(incremental));
    const result = await fc.check(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        cases++;
        for (const e of edits) release.apply(e);
        const fresh = path.join(root, `fresh-${cases}`);
        await build(options(incremental));
        await build(options(fresh));
        const a = treeSnapshot(incremental);
        const b = treeSnapshot(fresh);
        rmSync(fresh, { recursive: true, force: true });
        const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
        if (differ.length > 0) throw new Error(`after ${JSON.stringify(edits)} (matrices now ${release.ids().join(' ')}): the rebuilt folder differs from a new build in ${differ.length} entries: ${differ.slice(0, 8).join(', ')}`);
      }),
      // Cases chain through one folder: shrinking would replay edits on another state, so none.
      { numRuns: Number(values.runs), seed: values.seed === undefined ? undefined : Number(values.seed), endOnFailure: true },
    );
    if (result.failed) failure = `${fc.defaultReportMessage(result)}\n${(result.errorInstance as Error)?.message ?? result.errorInstance}`;
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify({ cases, seconds: (performance.now() - started) / 1000, failure })}\n`);
}

await main();
