// Matrix resources of the site the global setup built (fixture or full): detail bodies, versions, base ids,
// logos and sites.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, inject } from 'vitest';
import { SITE_BASE_URL, dataDir } from '../support/paths.ts';
import { sharedRelease } from '../support/release.ts';

const siteDir = inject('siteDir');
const read = (rel: string) => readFileSync(path.join(siteDir, rel), 'utf8');
const B = SITE_BASE_URL;

describe('matrix detail', () => {
  it('MA0074.1 carries the keys of the real service in its order, numbers as floats', () => {
    expect(read('api/v1/matrix/MA0074.1/index.json')).toBe(
      `{"matrix_id":"MA0074.1","name":"RXRA::VDR","base_id":"MA0074","version":1,"collection":"CORE",` +
        `"sequence_logo":"${B}/static/logos/svg/MA0074.1.svg","versions_url":"${B}/api/v1/matrix/MA0074/versions","sites_url":null,` +
        `"pfm":{"A":[3.0,0.0,0.0,0.0,0.0,9.0,4.0,2.0,2.0,5.0,0.0,0.0,1.0,0.0,7.0],"C":[0.0,0.0,0.0,0.0,9.0,0.0,2.0,4.0,0.0,0.0,0.0,0.0,0.0,9.0,1.0],` +
        `"G":[7.0,10.0,9.0,0.0,0.0,1.0,0.0,2.0,8.0,5.0,10.0,0.0,0.0,0.0,2.0],"T":[0.0,0.0,1.0,10.0,1.0,0.0,4.0,2.0,0.0,0.0,0.0,10.0,9.0,1.0,0.0]},` +
        `"class":["Nuclear receptors with C4 zinc fingers","Nuclear receptors with C4 zinc fingers"],` +
        `"family":["RXR-related receptors (NR2)","Thyroid hormone receptor-related factors (NR1)"],"tax_group":"vertebrates","type":"SELEX",` +
        `"comment":"heterodimer between RXRA and VDR","uniprot_ids":["P11473","P19793"],"pubmed_ids":["8674817"],"species":[{"tax_id":9606,"name":"Homo sapiens"}]}`,
    );
  });

  it('keeps full precision where the release has it (MA1972.1)', () => {
    const text = read('api/v1/matrix/MA1972.1/index.json');
    expect(text).toContain('"A":[137.739,118.631,994.427,0.796178,');
  });

  it('every matrix: valid body, no "NA", sites_url exactly where a BED file exists', () => {
    let withSites = 0;
    for (const m of sharedRelease().matrices) {
      const text = read(`api/v1/matrix/${m.matrixId}/index.json`);
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(body.matrix_id).toBe(m.matrixId);
      expect(body.version).toBe(m.version);
      expect(text).not.toContain('"NA"');
      for (const key of ['class', 'family', 'uniprot_ids', 'pubmed_ids', 'species']) expect(Array.isArray(body[key])).toBe(true);
      for (const key of ['tax_group', 'type', 'source', 'comment']) if (key in body) expect(body[key]).not.toBe('');
      const hasBed = existsSync(path.join(siteDir, `download/bed_files/${m.matrixId}.bed`));
      expect(body.sites_url).toBe(hasBed ? `${B}/download/bed_files/${m.matrixId}.bed` : null);
      if (hasBed) withSites++;
      expect(existsSync(path.join(siteDir, `static/logos/svg/${m.matrixId}.svg`))).toBe(true);
    }
    // The release's BED files, counted in its folder (281 in JASPAR 2024).
    expect(withSites).toBe(readdirSync(path.join(dataDir(), 'sites')).filter((f) => f.endsWith('.bed')).length);
  });

  it('a base id answers with its latest version; versions list all versions ascending', () => {
    const byBase = new Map<string, number[]>();
    for (const m of sharedRelease().matrices) byBase.set(m.baseId, [...(byBase.get(m.baseId) ?? []), m.version]);
    // The base ids of matrices.csv, read without the loader (2,989 in JASPAR 2024).
    const rows = readFileSync(path.join(dataDir(), 'matrices.csv'), 'utf8').trimEnd().split('\n').slice(1);
    expect(byBase.size).toBe(new Set(rows.map((r) => r.split(',')[1])).size);
    for (const [baseId, versions] of byBase) {
      const latest = Math.max(...versions);
      // Same bytes in every format but the page for people, whose request line names the base id.
      for (const file of readdirSync(path.join(siteDir, `api/v1/matrix/${baseId}.${latest}`)).filter((f) => f !== 'index.html')) {
        expect(read(`api/v1/matrix/${baseId}/${file}`), `${baseId}/${file}`).toBe(read(`api/v1/matrix/${baseId}.${latest}/${file}`));
      }
      const body = JSON.parse(read(`api/v1/matrix/${baseId}/versions/index.json`)) as { count: number; results: { version: string }[] };
      expect(Object.keys(body)).toEqual(['count', 'results']);
      expect(body.count).toBe(versions.length);
      expect(body.results.map((r) => Number(r.version))).toEqual([...versions].sort((a, b) => a - b));
    }
  });

  it('MA0835 (versions 2 and 3 only) and the API page of a matrix', () => {
    const body = JSON.parse(read('api/v1/matrix/MA0835/versions/index.json')) as { count: number; results: { matrix_id: string }[] };
    expect(body.results.map((r) => r.matrix_id)).toEqual(['MA0835.2', 'MA0835.3']);
    const html = read('api/v1/matrix/MA0004.1/index.html');
    expect(html).toContain('<img class="logo" src="/static/logos/svg/MA0004.1.svg"');
    // Whole counts as whole numbers (the JSON keeps Python's 4.0).
    expect(html).toContain('<th scope="row">A</th><td>4</td><td>19</td>');
    expect(html).toContain('href="/api/v1/matrix/MA0004/versions/?format=api"');
    expect(html).toContain('<div class="scroll" tabindex="0" role="region" aria-label="Counts of MA0004.1">');
  });
});
