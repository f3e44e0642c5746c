// A render worker is sent a record without its binding sites when they are read from their file
// (pipeline/pool.ts define, dataset/sites.ts sitesFile): it reads the file itself for the tasks that
// print the sites (a matrix's BED file and page, the BED lists), to the bytes a build on the main thread
// writes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/build.ts';
import { makeRelease } from '../support/fixtures.ts';
import { treeSnapshot } from '../support/tree.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-worker-sites-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('binding sites in a render worker', () => {
  const data = makeRelease(['MA0014.2', 'MA0014.3', 'MA0004.1', 'MA0024.2']);
  afterAll(() => rmSync(data, { recursive: true, force: true }));
  const options = (out: string, workers: number) => ({ dataDir: [data], outDir: path.join(root, out), baseUrl: 'http://localhost:8080', workers });

  it('are read from their file by the worker, to the bytes of a build without workers', async () => {
    await build(options('main', 0));
    await build(options('worker', 1));
    const main = treeSnapshot(path.join(root, 'main'));
    const worker = treeSnapshot(path.join(root, 'worker'));
    // The fixture's BED files are in the site: a matrix's own and the lists'.
    const bed = readFileSync(path.join(data, 'sites', 'MA0014.2.bed'), 'utf8').trim().split('\n')[0];
    const printed = Object.keys(worker).filter((k) => k.endsWith('.bed.txt') && readFileSync(path.join(root, 'worker', k), 'utf8').includes(bed));
    expect(printed.length).toBeGreaterThan(2);
    expect(worker).toEqual(main);
  });
});
