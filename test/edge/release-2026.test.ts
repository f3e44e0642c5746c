// rbioapi asks for release=2026 by default (issue 14): a 2024 mirror refuses
// it (test/clients/), a mirror built from a 2026 release answers it. Built
// here from JASPAR's own 2026 files (data/jaspar-2026: every CORE bundle and
// the 2026 metadata table; older versions' counts from data/jaspar-2024),
// compact (the handler renders the rest), and asked through the edge handler
// in process.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handle } from '../../generator/edge/handler.ts';
import { PROJECT_ROOT, SITE_BASE_URL } from '../support/paths.ts';
import { buildOk } from '../support/run.ts';
import { folderSite } from './folder-site.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'jaspar-2026-'));
const out = path.join(root, 'public');

beforeAll(async () => {
  await buildOk(['--data', path.join(PROJECT_ROOT, 'data/jaspar-2026'), '--out', out, '--base-url', SITE_BASE_URL, '--profile', 'compact']);
}, 600_000);
afterAll(() => rm(root, { recursive: true, force: true }));

async function json(url: string): Promise<{ status: number; body: { count?: number; results?: { matrix_id: string }[]; detail?: string } }> {
  const response = await handle(new Request(`${SITE_BASE_URL}${url}`), folderSite(out));
  return { status: response.status, body: JSON.parse(await response.text()) };
}

describe('a mirror of JASPAR 2026 (CORE)', () => {
  it('answers release=2026, rbioapi\'s default, with its matrices', async () => {
    const all = await json('/api/v1/matrix/?format=json&page_size=5');
    const asked = await json('/api/v1/matrix/?format=json&page_size=5&release=2026');
    expect(all.status).toBe(200);
    expect(asked.status).toBe(200);
    expect(asked.body.count).toBe(4572);
    expect(asked.body.results!.map((r) => r.matrix_id)).toEqual(all.body.results!.map((r) => r.matrix_id));
    const latest = await json('/api/v1/matrix/?version=latest&release=2026&page_size=5');
    expect(latest.body.count).toBe(2633);
    // The latest plant versions: the 927 records of JASPAR's plants bundle.
    const plants = await json('/api/v1/matrix/?tax_group=plants&release=2026&version=latest&page_size=1000');
    expect(plants.body.count).toBe(927);
    const diatoms = await json('/api/v1/matrix/?tax_group=diatoms&release=2026');
    expect(diatoms.body.results!.map((r) => r.matrix_id)).toEqual(['MA1407.1', 'MA1407.2']);
  });

  it('refuses another release with a reason, as the 2024 mirror refuses 2026', async () => {
    const other = await json('/api/v1/matrix/?release=2024');
    expect(other.status).toBe(404);
    expect(other.body.detail).toMatch(/this mirror serves JASPAR 2026/);
  });
});
