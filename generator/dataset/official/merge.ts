// JASPAR's download files → one Release. Each matrix's counts come from the
// bundles of the release year (TRANSFAC full precision over the rounded jaspar
// layout); its annotations from the TRANSFAC CC lines and the metadata table.
// Two files saying different things about one matrix is a problem reported at
// the second, naming the first; a rounded jaspar count is the TRANSFAC value
// printed with %6.0f, not a disagreement. The rules of the curated loader
// (ids, names, characters, identifiers, counts, BED) apply unchanged.
// A release whose bundles hold the latest versions only (JASPAR 2026) names
// an earlier release in its description (older_versions): the versions its
// metadata table lists that no bundle holds take their counts from there,
// and every version both hold must have the same counts. The annotations
// (names included) are the release's own: they may change between releases,
// counts never do.
import { BASES, type Matrix, type Pfm, type Release, type ReleaseInfo, type Species } from '../types.ts';
import { DatasetError, ProblemList } from '../diagnostics.ts';
import { FORBIDDEN_CHARACTER, IDENTIFIER, MATRIX_ID, plain, q } from '../text.ts';
import { readBed } from '../bed.ts';
import { grouped, pyFixed } from '../numbers.ts';
import type { BundleFile, Detected } from './detect.ts';
import type { CountRecord, MemeRecord, MetadataRow } from './parse.ts';

export interface ParsedBundle {
  file: BundleFile;
  /** Jaspar and TRANSFAC records; empty for MEME. */
  counts: CountRecord[];
  meme: MemeRecord[];
}

export interface OfficialInput {
  detected: Detected;
  bundles: ParsedBundle[];
  metadata: MetadataRow[];
  /** File name as shown in messages. */
  shown: (file: string) => string;
  /** The release older versions take their counts from (ReleaseInfo.olderVersions), or none. */
  older?: OlderRelease;
}

/** An earlier release, read whole, for the counts of the versions the release-year bundles leave out. */
export interface OlderRelease {
  release: Release;
  /** Its name in the summary: its folder, e.g. data/jaspar-2024. */
  name: string;
  /** Where a matrix's counts are in it, as file:line is shown in messages. */
  where: (m: Matrix) => { file: string; line: number };
}

/** Counts taken from the older release for one matrix, and where they are. */
interface OlderCounts {
  pfm: Pfm;
  file: string;
  line: number;
}

export interface OfficialRelease {
  release: Release;
  /** What the build summary says about the files: what was used, left out, ignored. */
  notes: string[];
}

/** A value and the place that gave it. */
interface Sourced<T> {
  value: T;
  file: string;
  line: number;
}

const at = (s: { file: string; line: number }) => `${s.file}:${s.line}`;
const n = grouped;

export function releaseYear(detected: Detected): number | null {
  const years = detected.bundles.map((b) => b.year);
  return years.length === 0 ? null : Math.max(...years);
}

/** problems: what was found before (files refused by name or content); all are thrown together. */
export function mergeOfficial(input: OfficialInput, info: ReleaseInfo, problems = new ProblemList()): OfficialRelease {
  const notes: string[] = [];
  const { detected, bundles } = input;
  const year = releaseYear(detected)!;
  if (info.year !== year) {
    problems.add(input.shown(bundles.find((b) => b.file.year === year)!.file.path), 1, `the files are JASPAR ${year} but the release description says ${info.year}`, `leave --release out (data/release-${year}.yaml is then used) or give a description of ${year}`);
  }

  // Counts of the release year, grouped by id, in file order.
  const current = bundles.filter((b) => b.file.year === year);
  const older = bundles.filter((b) => b.file.year < year);
  const records = new Map<string, { record: CountRecord; bundle: BundleFile }[]>();
  const add = (record: CountRecord, bundle: BundleFile) => {
    const list = records.get(record.id) ?? [];
    list.push({ record, bundle });
    records.set(record.id, list);
  };
  for (const b of current) for (const r of b.counts) add(r, b.file);

  // Earlier releases' bundles give the older versions of base ids the release
  // has (JASPAR's non-redundant bundles hold the latest version only, and a
  // version's counts do not change between releases); records of base ids the
  // release no longer has are left out, and ids the release has are its own.
  const currentIds = new Set(records.keys());
  const latest = new Map<string, number>();
  for (const id of currentIds) {
    const m = MATRIX_ID.exec(id);
    if (m) latest.set(m[1], Math.max(latest.get(m[1]) ?? 0, Number(m[2])));
  }
  for (const b of older) {
    let used = 0;
    let own = 0;
    let gone = 0;
    const seenHere = new Set<string>();
    for (const r of b.counts) {
      const m = MATRIX_ID.exec(r.id);
      if (!m || seenHere.has(r.id)) continue;
      seenHere.add(r.id);
      const top = latest.get(m[1]);
      if (currentIds.has(r.id)) own++;
      else if (top !== undefined && Number(m[2]) < top) {
        add(r, b.file);
        used++;
      } else gone++;
    }
    if (b.file.kind !== 'meme') {
      notes.push(`${b.file.name} (JASPAR ${b.file.year}): ${used} older versions used, ${own} ids left to the ${year} files, ${gone} left out (base ids the ${year} files do not hold, or versions not older than theirs)`);
    } else notes.push(`${b.file.name} (JASPAR ${b.file.year}): not used (MEME files are checked against the ${year} counts only)`);
  }

  const memes = new Map<string, MemeRecord[]>();
  for (const b of current) for (const r of b.meme) memes.set(r.id, [...(memes.get(r.id) ?? []), r]);

  // Metadata rows by id; a second row for an id must say the same.
  const meta = new Map<string, MetadataRow>();
  for (const row of input.metadata) {
    const id = row.values.matrix_id;
    const first = meta.get(id);
    if (!first) {
      meta.set(id, row);
      continue;
    }
    const differ = (Object.keys(row.values) as (keyof MetadataRow['values'])[]).filter((c) => row.values[c] !== first.values[c]);
    if (differ.length > 0) {
      problems.add(row.file, row.line, `a second metadata row for ${plain(id)} with other ${differ.join(', ')} (first at ${at(first)})`, 'keep one row per matrix_id');
    }
  }

  // The older release: counts of every version the table lists, for the
  // versions no bundle here holds and to check those that one does.
  const olderCounts = new Map<string, OlderCounts>();
  if (input.older) {
    const older = input.older;
    let listed = 0;
    for (const m of older.release.matrices) {
      if (!meta.has(m.matrixId)) continue;
      listed++;
      olderCounts.set(m.matrixId, { pfm: m.pfm, ...older.where(m) });
    }
    const only = [...olderCounts.keys()].filter((id) => !records.has(id)).length;
    notes.push(`${older.name}: counts of ${n(only)} older versions the ${year} table lists and no ${year} bundle holds; ${n(olderCounts.size - only)} versions both hold checked (the same counts); ${n(older.release.matrices.length - listed)} of its matrices are not in the ${year} table and are left out`);
  }

  const matrices: Matrix[] = [];
  const ids = [...new Set([...records.keys(), ...olderCounts.keys()])].sort();
  let fromBundles = 0;
  let fromOlder = 0;
  let precise = 0;
  for (const id of ids) {
    const own = records.get(id) ?? [];
    const prior = olderCounts.get(id);
    const matrix = mergeOne(id, own, memes.get(id) ?? [], meta.get(id), problems, prior);
    memes.delete(id);
    if (!matrix) continue;
    matrices.push(matrix);
    if (own.length > 0) fromBundles++;
    else fromOlder++;
    if (own.length > 0 && prior && matrix.pfm === prior.pfm && !BASES.every((b) => prior.pfm[b].every(Number.isInteger))) precise++;
  }
  if (input.older) {
    notes.push(`counts: ${n(fromBundles)} from the ${year} bundles (${n(precise)} of them with ${input.older.name}'s full-precision counts, which round to the bundles' whole numbers), ${n(fromOlder)} from ${input.older.name}`);
  }
  for (const [id, list] of memes) {
    problems.add(list[0].file, list[0].line, `${plain(id)} is only in a MEME file, which gives probabilities, not counts`, `add the jaspar or TRANSFAC bundle that holds ${plain(id)}`);
  }

  const used = new Set(matrices.map((m) => m.matrixId));
  const unused = [...meta.keys()].filter((id) => !records.has(id) && !olderCounts.has(id));
  if (input.metadata.length > 0) {
    const tables = [...new Set(input.metadata.map((r) => r.file))].join(', ');
    notes.push(`${tables}: ${meta.size - unused.length} of ${meta.size} matrices described have counts in the files${input.older ? ` or ${input.older.name}` : ''}; the other ${unused.length} are not mirrored`);
  }
  const byId = new Map(matrices.map((m) => [m.matrixId, m]));
  for (const bed of detected.beds) {
    const shown = input.shown(bed.path);
    if (!used.has(bed.id)) {
      problems.add(shown, 1, `sites file ${plain(`${bed.id}.bed`)} is for a matrix the files do not hold`, 'add the matrix or delete the file');
      continue;
    }
    const m = byId.get(bed.id)!;
    if (m.sites !== null) {
      problems.add(shown, 1, `a second sites file for ${bed.id}`, 'keep one <matrix_id>.bed per matrix');
      continue;
    }
    m.sites = readBed(bed.path, shown, problems);
  }
  if (detected.ignored.length > 0) notes.push(`not JASPAR download files, ignored: ${detected.ignored.join(', ')}`);
  if (problems.size > 0) throw new DatasetError(problems.items);
  matrices.forEach((m, row) => {
    m.row = row;
  });
  return { release: { info, matrices }, notes };
}

function equalPfm(a: Pfm, b: Pfm): boolean {
  return BASES.every((base) => a[base].length === b[base].length && a[base].every((v, i) => v === b[base][i]));
}

/** Where a full-precision count does not print as the jaspar count (%6.0f), or null. */
function roundingMismatch(precise: Pfm, rounded: Pfm): string | null {
  for (const base of BASES) {
    if (precise[base].length !== rounded[base].length) return `${precise[base].length} columns where the jaspar record has ${rounded[base].length}`;
    for (let i = 0; i < precise[base].length; i++) {
      if (Number(pyFixed(precise[base][i], 0)) !== rounded[base][i]) return `${base} column ${i + 1} is ${precise[base][i]}, which rounds to ${pyFixed(precise[base][i], 0)}, where the jaspar record says ${rounded[base][i]}`;
    }
  }
  return null;
}

/** MEME's printing of counts (formats/meme.ts): where the file's probabilities differ, or null.
 *  JASPAR prints its MEME files from the full-precision counts: with counts
 *  from a jaspar bundle only (rounded), a column agrees when some counts that
 *  round to them give the printed probabilities (and, for the first column,
 *  nsites); 32 of the 927 JASPAR 2026 plant matrices need this. */
function memeMismatch(pfm: Pfm, meme: MemeRecord, rounded: boolean): { line: number; what: string } | null {
  const width = pfm.A.length;
  if (meme.rows.length !== width) return { line: meme.line, what: `${meme.rows.length} columns where the counts have ${width}` };
  const totals = Array.from({ length: width }, (_, i) => BASES.reduce((sum, b) => sum + pfm[b][i], 0));
  if (!rounded && String(Math.trunc(totals[0])) !== meme.nsites) return { line: meme.line + 1, what: `nsites= ${meme.nsites} where the counts' first column adds up to ${Math.trunc(totals[0])}` };
  for (let i = 0; i < width; i++) {
    const expected = BASES.map((b) => (totals[i] > 0 ? pyFixed(pfm[b][i] / totals[i], 6) : pyFixed(0.25, 6)));
    const given = meme.rows[i];
    const exact = expected.every((p, k) => Number(p) === Number(given[k]));
    const ok = exact || (rounded && totals[i] > 0 && roundsTo(BASES.map((b) => pfm[b][i]), given.map(Number), i === 0 ? Number(meme.nsites) : null));
    if (!ok) return { line: meme.rowLines[i], what: `column ${i + 1} is ${given.join(' ')} where the counts give ${expected.join(' ')}` };
  }
  return null;
}

/** Whether some column total T and counts p·T (p as printed with 6 decimals,
 *  so within 5e-7) round to the given whole counts: each base bounds T, and the
 *  bounds must meet. nsites, where given, is the total truncated. */
function roundsTo(counts: number[], printed: number[], nsites: number | null): boolean {
  const half = 5e-7;
  let low = nsites ?? 0;
  let high = nsites === null ? Infinity : nsites + 1;
  counts.forEach((c, k) => {
    low = Math.max(low, (c - 0.5) / (printed[k] + half));
    if (printed[k] - half > 0) high = Math.min(high, (c + 0.5) / (printed[k] - half));
  });
  return low <= high;
}

/** "a; b" (TRANSFAC CC) or "a::b" (metadata table) → items; empty → []. */
function split(cell: string, separator: RegExp): string[] {
  return cell.trim() === '' ? [] : cell.split(separator).map((v) => v.trim());
}

/** prior: the older release's counts of this version (older_versions), for a version no bundle holds (list empty) or to check one that a bundle holds. */
function mergeOne(id: string, list: { record: CountRecord; bundle: BundleFile }[], memes: MemeRecord[], row: MetadataRow | undefined, problems: ProblemList, prior?: OlderCounts): Matrix | null {
  // A version only the older release has counts for is listed in the table (mergeOfficial takes no other).
  const first: { file: string; line: number } = list[0]?.record ?? row!;
  const m = MATRIX_ID.exec(id);
  if (!m) {
    problems.add(first.file, first.line, `matrix_id ${q(id)} is not <base_id>.<version> (two capital letters, four digits, a dot, a version number)`, 'correct the id, e.g. MA0004.1');
    return null;
  }
  const before = problems.size;
  const jaspar = list.filter((x) => x.bundle.kind === 'jaspar');
  const transfac = list.filter((x) => x.bundle.kind === 'transfac');
  // The same kind twice (the redundant bundle and a per-taxon bundle, two
  // years' bundles of one version): the same counts, or a conflict.
  for (const group of [jaspar, transfac]) {
    for (const other of group.slice(1)) {
      if (!equalPfm(group[0].record.pfm, other.record.pfm)) {
        problems.add(other.record.file, other.record.line, `${id} has other counts here than in ${at(group[0].record)}`, 'the two files must hold the same matrix: keep JASPAR\'s files unchanged, or remove one');
      }
    }
  }
  if (jaspar.length > 0) {
    for (const t of transfac) {
      const mismatch = roundingMismatch(t.record.pfm, jaspar[0].record.pfm);
      if (mismatch) problems.add(t.record.file, t.record.line, `${id}: ${mismatch} (${at(jaspar[0].record)})`, 'the two files must hold the same matrix: keep JASPAR\'s files unchanged, or remove one');
    }
  }
  // The older release's counts of a version a bundle here holds: the same
  // counts, or full-precision counts that print as the bundle's (%6.0f): the
  // same matrix, kept at full precision as TRANSFAC's are.
  let usePrior = prior !== undefined && list.length === 0;
  if (prior && list.length > 0) {
    const here = (transfac[0] ?? jaspar[0]).record;
    const same = transfac.length > 0 ? equalPfm(prior.pfm, here.pfm) : roundingMismatch(prior.pfm, here.pfm) === null;
    if (!same) {
      const what = transfac.length > 0 ? '' : ` (there: ${roundingMismatch(prior.pfm, here.pfm)})`;
      problems.add(here.file, here.line, `${id} has other counts here than in ${at(prior)}${what}`,
        'JASPAR never changes a published version\'s counts: keep JASPAR\'s files unchanged, or name another release in older_versions');
    } else if (transfac.length === 0) usePrior = true;
  }
  const countsAt = usePrior ? prior! : (transfac[0] ?? jaspar[0]).record;
  const pfm = usePrior ? prior!.pfm : (transfac[0] ?? jaspar[0]).record.pfm;
  // Rounded: only whole numbers are known (a jaspar bundle's, or an older release's from its jaspar files).
  const rounded = transfac.length === 0 && BASES.every((b) => pfm[b].every(Number.isInteger));
  for (const meme of memes) {
    const mismatch = memeMismatch(pfm, meme, rounded);
    if (mismatch) problems.add(meme.file, mismatch.line, `${id}: ${mismatch.what} (${at(countsAt)})`, 'the MEME file must be the same matrices as the count files: keep JASPAR\'s files unchanged, or remove one');
  }

  // Names: every file that names the matrix names it alike.
  const names: Sourced<string>[] = [
    ...[...jaspar, ...transfac].map((x) => ({ value: x.record.name, file: x.record.file, line: x.record.line })),
    ...memes.map((x) => ({ value: x.name, file: x.file, line: x.line })),
    ...(row ? [{ value: row.values.name, file: row.file, line: row.line }] : []),
  ];
  for (const n of names.slice(1)) {
    if (n.value !== names[0].value) problems.add(n.file, n.line, `${id} is named ${q(n.value)} here but ${q(names[0].value)} in ${at(names[0])}`, 'the files must name the matrix alike: keep JASPAR\'s files unchanged, or remove one');
  }
  const name = names[0].value;
  if (name.trim() === '') problems.add(first.file, first.line, `matrix ${id} has an empty name`, 'give the matrix its name');

  if (row) {
    if (row.values.base_id !== m[1]) problems.add(row.file, row.line, `base_id ${q(row.values.base_id)} does not match matrix_id ${id}`, `set base_id to ${m[1]}`);
    if (row.values.version !== m[2]) problems.add(row.file, row.line, `version ${q(row.values.version)} does not match matrix_id ${id}`, `set version to ${m[2]}`);
  }
  // A cell of the metadata table; "-" is its placeholder for none (MA0138.1 validation).
  const cell = (column: keyof MetadataRow['values']) => {
    const v = row?.values[column] ?? '';
    return v === '-' ? '' : v;
  };
  const cc = (key: string) => transfac.map((t) => ({ value: t.record.cc.get(key)?.value ?? '', file: t.record.file, line: t.record.cc.get(key)?.line ?? t.record.line }));
  const fromRow = (column: keyof MetadataRow['values']) => (row ? [{ value: cell(column), file: row.file, line: row.line }] : []);

  /** The first non-empty value; another non-empty value that differs is a conflict. */
  function agree<T>(field: string, sources: Sourced<T>[], empty: (v: T) => boolean, show: (v: T) => string, none: T): T {
    const given = sources.filter((s) => !empty(s.value));
    for (const s of given.slice(1)) {
      if (show(s.value) !== show(given[0].value)) {
        problems.add(s.file, s.line, `${field} of ${id} is ${q(show(s.value))} here but ${q(show(given[0].value))} in ${at(given[0])}`, 'the files must agree: keep JASPAR\'s files of one release unchanged, or remove one');
      }
    }
    return given.length > 0 ? given[0].value : none;
  }
  const text = (field: string, sources: Sourced<string>[]) => agree(field, sources, (v) => v === '', (v) => v, '');
  const items = (field: string, sources: Sourced<string[]>[]) => agree(field, sources, (v) => v.length === 0, (v) => v.join(';'), [] as string[]);
  const cclist = (key: string) => cc(key).map((s) => ({ ...s, value: split(s.value, /;/) }));
  const rowlist = (column: keyof MetadataRow['values']) => fromRow(column).map((s) => ({ ...s, value: split(s.value, /::/) }));

  const collection = text('collection', [...list.map((x) => ({ value: x.bundle.collection, file: x.record.file, line: x.record.line })), ...fromRow('collection')]);
  const taxGroup = text('tax_group', [
    ...list.filter((x) => x.bundle.taxGroup !== null).map((x) => ({ value: x.bundle.taxGroup!, file: x.record.file, line: x.record.line })),
    ...cc('tax_group'),
    ...fromRow('tax_group'),
  ]);
  const tfClass = items('tf_class', [...cclist('tf_class'), ...rowlist('class')]);
  const tfFamily = items('tf_family', [...cclist('tf_family'), ...rowlist('family')]);
  const dataType = text('data_type', [...cc('data_type'), ...fromRow('type')]);
  const uniprotIds = items('uniprot_ids', [...cclist('uniprot_ids'), ...rowlist('uniprot_ids')]);
  const pubmedIds = items('pubmed_ids', [...cclist('pubmed_ids'), ...rowlist('validation')]);
  const species = row ? readSpecies(id, row, cell('species'), cell('tax_id'), problems) : [];

  // The curated loader's rules for what becomes paths and text lines.
  if (!IDENTIFIER.test(collection)) problems.add(first.file, first.line, `collection ${q(collection)} of ${id} is not a plain identifier (letters, digits, "_" and "-")`, 'use the collection name JASPAR uses, e.g. CORE');
  if (taxGroup !== '' && !IDENTIFIER.test(taxGroup)) problems.add(row?.file ?? first.file, row?.line ?? first.line, `tax_group ${q(taxGroup)} of ${id} is not a plain identifier (letters, digits, "_" and "-")`, 'use the group name JASPAR uses, e.g. vertebrates, or leave it empty');
  const fields: [string, string][] = [
    ['name', name], ['tax_group', taxGroup], ['tf_class', tfClass.join(';')], ['tf_family', tfFamily.join(';')], ['data_type', dataType],
    ['uniprot_ids', uniprotIds.join(';')], ['pubmed_ids', pubmedIds.join(';')], ['species', species.map((s) => s.name).join(';')],
    ['source', cell('source')], ['comment', cell('comment')],
  ];
  for (const [field, value] of fields) {
    const bad = FORBIDDEN_CHARACTER.exec(value);
    if (bad) {
      const where = field === 'name' ? first : (row ?? first);
      problems.add(where.file, where.line, `${field} of ${id} contains a control character, U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} (tab, line break, bidirectional control or similar)`,
        'remove it; names and annotations are single-line plain text');
    }
  }
  if (problems.size > before) return null;
  return {
    matrixId: id,
    baseId: m[1],
    version: Number(m[2]),
    collection,
    name,
    pfm,
    taxGroup,
    tfClass,
    tfFamily,
    dataType,
    species,
    uniprotIds,
    pubmedIds,
    source: cell('source'),
    comment: cell('comment'),
    sites: null,
    row: 0,
  };
}

/** species and tax_id of the metadata table, `::`-joined and paired by position (the curated loader's rule with `;`). */
function readSpecies(id: string, row: MetadataRow, namesCell: string, taxCell: string, problems: ProblemList): Species[] {
  const names = split(namesCell, /::/);
  const taxIds = split(taxCell, /::/);
  if (taxIds.length > 0 && taxIds.length !== names.length) {
    problems.add(row.file, row.line, `${id}: ${names.length} species but ${taxIds.length} tax_ids`, 'give one tax id per species, in the same order (leave tax_id empty if unknown)');
    return [];
  }
  return names.map((name, i) => {
    const tax = taxIds[i] ?? '';
    if (tax !== '' && !/^[0-9]+$/.test(tax)) {
      problems.add(row.file, row.line, `${id}: tax id ${q(tax)} is not a number`, 'use NCBI taxonomy ids, e.g. 9606');
      return { taxId: null, name };
    }
    return { taxId: tax === '' ? null : Number(tax), name };
  });
}
