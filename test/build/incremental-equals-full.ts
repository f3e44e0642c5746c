// The property behind incremental rebuilds (issue 22): after any edits to
// either release of a two-release site, a curated one and one of JASPAR's own
// download files (a count changed, an annotation changed, a matrix added, a
// matrix removed; the official one's description, which every file it renders
// prints), a rebuild of the previous build's folder holds exactly the bytes
// a build into a new folder writes, every file (the mirror archive, its
// checksum and manifest included), and no other file. A matrix's binding
// sites (a BED file) are edited too. Cases chain: each
// rebuilds the folder the previous case left, so an edit and its undoing,
// and edits after a removal, are covered too. Some cases let the edited
// files settle first, so that what the reader made of them is kept by their
// new content and used by the next case.
//
// Run as a child process by incremental-equals-full.test.ts (builds block
// the event loop); prints one JSON line: cases run, seconds, the failure.
//   node --import tsx test/build/incremental-equals-full.ts [--runs N] [--seed S] [--workers N]
// With --workers, every build renders on that many worker threads, which keep records' texts across
// builds (pipeline/fragments.ts): a rebuild then renders from the texts the previous one kept.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { DEFAULT_RELEASE_FILE, build } from '../../generator/build.ts';
import { makeRelease } from '../support/fixtures.ts';
import { PROJECT_ROOT, dataDir } from '../support/paths.ts';
import { treeSnapshot } from '../support/tree.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '12' }, seed: { type: 'string' }, workers: { type: 'string', default: '0' } } });

/** Matrices a case may add: another version of a base id the fixture has (MA0014.1), new base ids, another collection and taxonomic groups. */
const EXTRA = ['MA0014.1', 'MA0001.1', 'MA0003.1', 'UN0084.1', 'MA0015.1'];
const SOURCE = dataDir();
const sourceRows = new Map(readFileSync(path.join(SOURCE, 'matrices.csv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => [l.split(',')[0], l]));
const sourcePrecise = JSON.parse(readFileSync(path.join(SOURCE, 'pfm_noninteger.json'), 'utf8')) as Record<string, unknown>;
const OFFICIAL_SOURCE = path.join(PROJECT_ROOT, 'data/jaspar-2026');
const OFFICIAL_BUNDLES = ['JASPAR2026_CORE_fungi_non-redundant_pfms_jaspar.txt', 'JASPAR2026_CORE_nematodes_non-redundant_pfms_jaspar.txt'];
const OFFICIAL_TABLE = 'ultimate_metadata_table_CORE.tsv';

type Edit =
  | { kind: 'count'; pick: number; base: number; column: number; value: number }
  | { kind: 'annotation'; pick: number; field: 'name' | 'tax_group' | 'data_type'; value: string }
  | { kind: 'add'; pick: number }
  | { kind: 'remove'; pick: number }
  | { kind: 'sites'; pick: number }
  | { kind: 'description'; field: 'name' | 'transfac_from'; value: string };

/** An edit to the curated release, or to the official one (its bundles and metadata table). */
type Edited = Edit & { release: 'curated' | 'official' };

const edit: fc.Arbitrary<Edited> = fc.tuple(fc.constantFrom('curated' as const, 'official' as const), fc.oneof(
  fc.record({ kind: fc.constant('count' as const), pick: fc.nat(), base: fc.nat({ max: 3 }), column: fc.nat({ max: 30 }), value: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('name' as const), value: fc.constantFrom('Arnt', 'ZNF-x', 'RXRA::VDR') }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('tax_group' as const), value: fc.constantFrom('vertebrates', 'plants', 'insects') }),
  fc.record({ kind: fc.constant('annotation' as const), pick: fc.nat(), field: fc.constant('data_type' as const), value: fc.constantFrom('ChIP-seq', 'SELEX') }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  // A matrix's binding sites, the curated release's BED file: its copy in the site is keyed by the record's digest (build.ts sitesFile).
  fc.record({ kind: fc.constant('sites' as const), pick: fc.nat() }),
  // What the formats print of the release (every page and copy renders with it), in the official release's description.
  fc.record({ kind: fc.constant('description' as const), field: fc.constantFrom('name' as const, 'transfac_from' as const), value: fc.constantFrom('', ' (edited)') }),
)).map(([release, e]) => ({ ...e, release: e.kind === 'description' ? 'official' as const : e.kind === 'sites' ? 'curated' as const : release }));

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
    if (e.kind === 'description') throw new Error('the curated release is described by data/release-2024.yaml, which the property does not edit');
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
    if (e.kind === 'sites') {
      // One site fewer (the last), or, of a file with one, that site twice.
      const withSites = ids.filter((id) => existsSync(path.join(this.dir, 'sites', `${id}.bed`)));
      if (withSites.length === 0) return;
      const file = path.join(this.dir, 'sites', `${withSites[e.pick % withSites.length]}.bed`);
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      writeFileSync(file, `${(lines.length > 1 ? lines.slice(0, -1) : [...lines, ...lines]).join('\n')}\n`);
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

/**
 * A release of JASPAR's own download files, JASPAR 2026's kind (generator/dataset/official/): two
 * per-taxon jaspar bundles and the metadata table, records cut unchanged from data/jaspar-2026, edited
 * as the curated one: a count in a bundle, an annotation in the table (a name or taxonomic group must
 * agree between bundle and table, so those edits go to the comment and the family), a record added from the same
 * bundles or removed (its table row with it). Described by JASPAR 2026's description without
 * older_versions: its records are new base ids, and reading the whole 2024 release for every build
 * would double the property's time.
 */
/** A jaspar record's matrix id (">MA0271.1\tARG80…"). */
const idOf = (record: string) => record.slice(1, record.indexOf('\t'));

class Official {
  private readonly bundles = new Map<string, string[]>();
  /** Each bundle's records in the source's order: the first three are the release, the next two may be added. */
  private readonly source = new Map<string, string[]>();
  private readonly rows = new Map<string, string>();
  private readonly header: string;
  readonly description: string;
  constructor(readonly dir: string) {
    const table = readFileSync(path.join(OFFICIAL_SOURCE, OFFICIAL_TABLE), 'utf8').split('\n');
    this.header = table[0];
    for (const bundle of OFFICIAL_BUNDLES) {
      const lines = readFileSync(path.join(OFFICIAL_SOURCE, bundle), 'utf8').split('\n');
      const records: string[] = [];
      for (let i = 0; i < lines.length && records.length < 5; i++) if (lines[i].startsWith('>')) records.push(lines.slice(i, i + 5).join('\n'));
      this.source.set(bundle, records);
      this.bundles.set(bundle, records.slice(0, 3));
      for (const r of records) {
        const id = idOf(r);
        this.rows.set(id, table.find((l) => l.split('\t')[2] === id)!);
      }
    }
    this.description = path.join(dir, '..', `${path.basename(dir)}-release-2026.yaml`);
    writeFileSync(this.description, readFileSync(path.join(PROJECT_ROOT, 'data/release-2026.yaml'), 'utf8').replace(/^older_versions:.*\n/m, ''));
    this.save();
  }
  private save(): void {
    const ids: string[] = [];
    for (const [bundle, records] of this.bundles) {
      writeFileSync(path.join(this.dir, bundle), records.map((r) => `${r}\n`).join(''));
      ids.push(...records.map((r) => idOf(r)));
    }
    writeFileSync(path.join(this.dir, OFFICIAL_TABLE), `${[this.header, ...ids.map((id) => this.rows.get(id)!)].join('\n')}\n`);
  }
  ids(): string[] {
    return [...this.bundles.values()].flat().map((r) => idOf(r));
  }
  apply(e: Edit): void {
    if (e.kind === 'sites') throw new Error('the property edits the curated release\'s BED files only');
    if (e.kind === 'description') {
      const text = readFileSync(this.description, 'utf8');
      writeFileSync(this.description, text.replace(new RegExp(`^(${e.field}: [^\\n]*?)( \\(edited\\))?$`, 'm'), `$1${e.value}`));
      return;
    }
    const all = [...this.bundles].flatMap(([bundle, records]) => records.map((record, i) => ({ bundle, record, i })));
    if (e.kind === 'add') {
      // By id: a record edited since (a count) is there all the same.
      const present = new Set(this.ids());
      const absent = [...this.source].flatMap(([bundle, records]) => records.filter((r) => !present.has(idOf(r))).map((record) => ({ bundle, record })));
      if (absent.length === 0) return;
      const { bundle, record } = absent[e.pick % absent.length];
      this.bundles.get(bundle)!.push(record);
    } else if (e.kind === 'remove') {
      if (all.length <= 2) return;
      const { bundle, i } = all[e.pick % all.length];
      this.bundles.get(bundle)!.splice(i, 1);
    } else if (e.kind === 'annotation') {
      const id = this.ids()[e.pick % all.length];
      const cells = this.rows.get(id)!.split('\t');
      // The table's own columns: the data type as asked; a name's value as the comment, a group's as the family.
      const column = { data_type: 'type', name: 'comment', tax_group: 'family' }[e.field];
      cells[this.header.split('\t').indexOf(column)] = e.value;
      this.rows.set(id, cells.join('\t'));
    } else {
      const { bundle, record, i } = all[e.pick % all.length];
      const lines = record.split('\n');
      const row = 1 + e.base;
      lines[row] = lines[row].replace(/\[(.*)\]/, (_, inner: string) => {
        const counts = inner.trim().split(/\s+/);
        counts[e.column % counts.length] = String(e.value);
        return `[ ${counts.map((c) => c.padStart(5)).join(' ')} ]`;
      });
      this.bundles.get(bundle)![i] = lines.join('\n');
    }
    this.save();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-inc-property-'));
  const data = makeRelease();
  const release = new Release(data);
  const officialDir = mkdtempSync(path.join(os.tmpdir(), 'jaspar-inc-official-'));
  const official = new Official(officialDir);
  const options = (outDir: string) => ({ dataDir: [data, officialDir], releaseFile: [DEFAULT_RELEASE_FILE, official.description], outDir, baseUrl: 'http://localhost:8080', workers: Number(values.workers) });
  const incremental = path.join(root, 'incremental');
  let cases = 0;
  // Cases whose rebuild patched an archive (mirror/archive.ts ArchivePatch: only files rewritten).
  let patched = 0;
  // Cases whose rebuild left tasks out of its plan, their files the previous build's (pipeline/kept-plan.ts).
  let kept = 0;
  let failure: string | null = null;
  try {
    await build(options(incremental));
    const result = await fc.check(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.boolean(), async (edits, settled) => {
        cases++;
        for (const e of edits) (e.release === 'curated' ? release : official).apply(e);
        // Settled: the edited files are two seconds old, so the fingerprint trusts their new hashes and the
        // reader keeps (and the next case uses) what it made of them by content (dataset/parsed-files.ts:
        // matrices.csv, .jaspar, BED and download files); else they are read as files changed just now.
        if (settled) await new Promise((resolve) => setTimeout(resolve, 2_100));
        const fresh = path.join(root, `fresh-${cases}`);
        const rebuilt = await build(options(incremental));
        if (rebuilt.archiveMembers.patched) patched++;
        if ((rebuilt.tasks.kept ?? 0) > 0) kept++;
        await build(options(fresh));
        const a = treeSnapshot(incremental);
        const b = treeSnapshot(fresh);
        rmSync(fresh, { recursive: true, force: true });
        const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
        if (differ.length > 0) throw new Error(`after ${JSON.stringify(edits)}${settled ? ', settled' : ''} (matrices now ${release.ids().join(' ')}; official ${official.ids().join(' ')}): the rebuilt folder differs from a new build in ${differ.length} entries: ${differ.slice(0, 8).join(', ')}`);
      }),
      // Cases chain through one folder: shrinking would replay edits on another state, so none.
      // The first case counts alone (two cells of one matrix, one at least changed): the archives are patched.
      { numRuns: Number(values.runs), seed: values.seed === undefined ? undefined : Number(values.seed), endOnFailure: true, examples: [[[{ release: 'curated', kind: 'count', pick: 0, base: 0, column: 0, value: 40 }, { release: 'curated', kind: 'count', pick: 0, base: 1, column: 1, value: 39 }], false]] },
    );
    if (result.failed) failure = `${fc.defaultReportMessage(result)}\n${(result.errorInstance as Error)?.message ?? result.errorInstance}`;
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
    rmSync(officialDir, { recursive: true, force: true });
    rmSync(official.description, { force: true });
  }
  process.stdout.write(`${JSON.stringify({ cases, patched, kept, seconds: (performance.now() - started) / 1000, failure })}\n`);
}

await main();
