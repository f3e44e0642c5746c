// Bulk files against JASPAR's own download bundles (test/golden/jaspar-2018), and
// the whole-list files against the list pages of the built site.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { FORMATS } from '../../generator/formats/registry.ts';
import { MEME_HEADER } from '../../generator/formats/meme.ts';
import { type BulkFile, bulkFiles, bundleSets } from '../../generator/mirror/bulk.ts';
import { allMatricesPath, rel } from '../../generator/mirror/layout.ts';
import { FLAT } from '../../generator/routes/shard.ts';
import { logoPath } from '../../generator/routes/urls.ts';
import { SITE_BASE_URL, JASPAR_2018, dataDir } from '../support/paths.ts';
import { releaseInfo, sharedRelease, transfacAsIn2024 } from '../support/release.ts';

const sources = path.join(dataDir(), 'sources');
const context = { release: releaseInfo(), logoHref: (id: string) => logoPath(FLAT, id), detailHref: (id: string) => id };
let cached: Map<string, BulkFile> | undefined;
/** Our bulk files of the shared release, by file name. */
function ours(): Map<string, BulkFile> {
  cached ??= new Map([...bulkFiles(sharedRelease(), SITE_BASE_URL, FLAT, context)].map((f) => [path.posix.basename(f.path), f]));
  return cached;
}

/** Splits a bundle into records starting with `marker` (kept), in file order. */
function records(text: string, marker: RegExp): [string, string][] {
  const starts = [...text.matchAll(marker)].map((m) => m.index ?? 0);
  return starts.map((start, i) => {
    const record = text.slice(start, starts[i + 1] ?? text.length);
    return [/^(?:>|AC |MOTIF )(\S+)/.exec(record)![1], record];
  });
}

const MARKERS = { jaspar: /^>/gm, transfac: /^AC /gm, meme: /^MOTIF /gm } as const;

/** Our bundle equals JASPAR's byte for byte once our records are put in JASPAR's order (JASPAR's database order is not in the release). */
function compareBundle(file: string, theirs: string, format: keyof typeof MARKERS) {
  const mine = ours().get(file);
  expect(mine, `we write no ${file}`).toBeDefined();
  const header = format === 'meme' ? MEME_HEADER : '';
  const their = records(theirs, MARKERS[format]);
  // CC values the release fills from JASPAR's 2026 table are empty in the 2024 export (golden.test.ts checks that they are the only differences).
  const asIn2024 = (id: string, text: string) => (format === 'transfac' ? transfacAsIn2024(id, text) : text);
  const our = new Map(records(mine!.content, MARKERS[format]).map(([id, text]) => [id, asIn2024(id, text)]));
  expect(mine!.content.startsWith(header)).toBe(true);
  expect([...our.keys()].sort()).toEqual(their.map(([id]) => id).sort());
  expect(header + their.map(([id]) => our.get(id)).join('')).toBe(theirs);
  // Ours come in matrix id order.
  const ids = [...our.keys()];
  expect(ids).toEqual([...ids].sort());
}

describe('JASPAR-layout bundles equal the real 2024 bundles', () => {
  it('CORE redundant, jaspar (4279 records)', () => {
    compareBundle('JASPAR2024_CORE_redundant_pfms_jaspar.txt', readFileSync(path.join(sources, 'JASPAR2024_CORE_redundant_pfms_jaspar.txt'), 'utf8'), 'jaspar');
  });

  it('UNVALIDATED non-redundant, jaspar (643 records)', () => {
    compareBundle('JASPAR2024_UNVALIDATED_non-redundant_pfms_jaspar.txt', readFileSync(path.join(sources, 'JASPAR2024_UNVALIDATED_non-redundant_pfms_jaspar.txt'), 'utf8'), 'jaspar');
  });

  const taxa = readdirSync(sources).filter((f) => /^JASPAR2024_CORE_\w+_non-redundant_pfms_transfac\.txt$/.test(f));
  it.each(taxa)('%s', (file) => {
    compareBundle(file, readFileSync(path.join(sources, file), 'utf8'), 'transfac');
  });

  it('finds the six per-taxon TRANSFAC bundles', () => {
    expect(taxa).toHaveLength(6);
  });
});

describe('bundle sets and layouts', () => {
  it('are the sets JASPAR publishes, and nothing empty', () => {
    const sets = bundleSets(sharedRelease());
    const names = sets.map((s) => s.set);
    expect(names.slice(0, 2)).toEqual(['CORE_non-redundant', 'CORE_redundant']);
    for (const taxon of ['fungi', 'insects', 'nematodes', 'plants', 'urochordates', 'vertebrates']) {
      expect(names).toContain(`CORE_${taxon}_non-redundant`);
      expect(names).toContain(`CORE_${taxon}_redundant`);
    }
    expect(names).toContain('UNVALIDATED_non-redundant');
    expect(names).toHaveLength(2 + 12 + 1);
    expect(sets.every((s) => s.matrices.length > 0)).toBe(true);
    const count = (set: string) => sets.find((s) => s.set === set)!.matrices.length;
    expect([count('CORE_redundant'), count('CORE_non-redundant'), count('UNVALIDATED_non-redundant')]).toEqual([4279, 2346, 643]);
  });

  it('meme bundles start with the header of JASPAR 2018 bundles and end each motif with its URL line and a blank line', () => {
    const theirs = readFileSync(path.join(JASPAR_2018, 'CORE/JASPAR2018_CORE_non-redundant_pfms_meme.txt'), 'utf8');
    const mine = ours().get('JASPAR2024_CORE_non-redundant_pfms_meme.txt')!.content;
    expect(mine.slice(0, mine.indexOf('MOTIF '))).toBe(theirs.slice(0, theirs.indexOf('MOTIF ')));
    for (const text of [mine, theirs]) {
      const motifs = records(text, MARKERS.meme);
      expect(motifs.every(([, r]) => /\nURL \S+\n\n$/.test(r))).toBe(true);
    }
    // MA0004.1 Arnt kept its name and counts since 2018: the same record.
    expect(new Map(records(mine, MARKERS.meme)).get('MA0004.1')).toBe(new Map(records(theirs, MARKERS.meme)).get('MA0004.1'));
  });

  it('jaspar bundles have no blank lines; transfac records end with "//"', () => {
    expect(ours().get('JASPAR2024_CORE_non-redundant_pfms_jaspar.txt')!.content).not.toContain('\n\n');
    const transfac = ours().get('JASPAR2024_CORE_redundant_pfms_transfac.txt')!.content;
    expect(records(transfac, MARKERS.transfac).every(([, r]) => r.endsWith('XX\n//\n'))).toBe(true);
  });
});

describe('the whole list in one file', () => {
  const siteDir = inject('siteDir');
  const year = releaseInfo().year;
  const read = (urlPath: string) => readFileSync(path.join(siteDir, rel(urlPath)), 'utf8');
  const pageFiles = (ext: string) => {
    const pages = readdirSync(path.join(siteDir, 'api/v1/matrix/page')).map(Number).sort((a, b) => a - b);
    return pages.map((n) => readFileSync(path.join(siteDir, `api/v1/matrix/page/${n}/index.${ext}`), 'utf8'));
  };

  it.each([
    ['jaspar', '_jaspar.txt'],
    ['transfac', '_transfac.txt'],
    ['pfm', '_pfm.txt'],
  ])('%s is every list page joined', (format, suffix) => {
    expect(read(allMatricesPath(year, suffix))).toBe(pageFiles(FORMATS[format as 'jaspar'].extension).join(''));
  });

  it('meme is the header once, then every list page\'s motifs', () => {
    const pages = pageFiles('meme.txt');
    expect(pages.every((p) => p.startsWith(MEME_HEADER))).toBe(true);
    expect(read(allMatricesPath(year, '_meme.txt'))).toBe(MEME_HEADER + pages.map((p) => p.slice(MEME_HEADER.length)).join(''));
  });

  it('json is the list body with every page\'s results', () => {
    const all = JSON.parse(read(allMatricesPath(year, '.json')));
    const pages = pageFiles('json').map((p) => JSON.parse(p));
    expect(all.count).toBe(pages[0].count);
    expect(all.next).toBeNull();
    expect(all.results).toEqual(pages.flatMap((p) => p.results));
    expect(all.results).toHaveLength(all.count);
  });
});
