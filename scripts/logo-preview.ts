// Renders our logos for a few telling matrices next to JASPAR's own SVGs in
// one HTML page and screenshots it with headless Chromium, to look at.
//
//   npx tsx scripts/logo-preview.ts OUTDIR [SHOTDIR]
//
// OUTDIR gets index.html and the SVGs; SHOTDIR (default /tmp/logo-shots) the
// PNGs. Needs /usr/bin/chromium (apt-get install -y chromium).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Pfm } from '../generator/logos/math.ts';
import { renderLogoSvg } from '../generator/logos/svg.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.JASPAR_DATA ?? path.resolve(repo, 'data/jaspar-2024');
const goldenDir = path.resolve(repo, 'test/golden/formats/jaspar2018');

const CASES: { id: string; why: string; fractional?: boolean }[] = [
  { id: 'MA0004.1', why: 'short (6 columns)' },
  { id: 'MA0139.1', why: 'long (19 columns)' },
  { id: 'UN0498.1', why: 'column 12 is all zeros' },
  { id: 'MA1972.1', why: 'fractional counts (pfm_noninteger.json)', fractional: true },
];

function readJasparPfm(id: string): Pfm {
  const text = readFileSync(path.join(dataDir, 'matrices', `${id}.jaspar`), 'utf8');
  const pfm: Pfm = { A: [], C: [], G: [], T: [] };
  for (const line of text.split(/\r?\n/)) {
    const m = /^([ACGT])\s*\[([^\]]*)\]/.exec(line);
    if (m) pfm[m[1] as keyof Pfm] = m[2].trim().split(/\s+/).map(Number);
  }
  return pfm;
}

function readFractionalPfm(id: string): Pfm {
  const all = JSON.parse(readFileSync(path.join(dataDir, 'pfm_noninteger.json'), 'utf8')) as Record<
    string,
    { pfm: Record<keyof Pfm, string[]> }
  >;
  const rows = all[id].pfm;
  return { A: rows.A.map(Number), C: rows.C.map(Number), G: rows.G.map(Number), T: rows.T.map(Number) };
}

async function main(): Promise<void> {
  const outDir = process.argv[2];
  const shotDir = process.argv[3] ?? '/tmp/logo-shots';
  if (!outDir) throw new Error('usage: npx tsx scripts/logo-preview.ts OUTDIR [SHOTDIR]');
  mkdirSync(outDir, { recursive: true });
  mkdirSync(shotDir, { recursive: true });

  let rows = '';
  for (const c of CASES) {
    const pfm = c.fractional ? readFractionalPfm(c.id) : readJasparPfm(c.id);
    const svg = renderLogoSvg(pfm);
    writeFileSync(path.join(outDir, `${c.id}.svg`), svg);
    const golden = path.join(goldenDir, `${c.id}.svg`);
    let theirs = '<p class="none">no JASPAR SVG in the golden set</p>';
    if (existsSync(golden)) {
      copyFileSync(golden, path.join(outDir, `${c.id}.jaspar.svg`));
      theirs = `<img src="${c.id}.jaspar.svg" style="height:240px">`;
    }
    rows +=
      `<section id="${c.id}"><h2>${c.id} — ${c.why} (${svg.length} bytes)</h2>` +
      `<div class="pair"><img src="${c.id}.svg" style="height:240px">${theirs}</div>` +
      `<p>natural size: <img src="${c.id}.svg"></p></section>\n`;
  }
  const html = `<!doctype html><meta charset="utf-8"><title>logo preview</title>
<style>body{font:14px sans-serif;margin:16px;background:#eee}section{background:#fff;margin:0 0 16px;padding:8px}
.pair{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-end}.pair img{border:1px solid #ccc}.none{color:#888}</style>
${rows}`;
  const htmlPath = path.join(outDir, 'index.html');
  writeFileSync(htmlPath, html);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(pathToFileURL(path.resolve(htmlPath)).href);
    await page.screenshot({ path: path.join(shotDir, 'page.png'), fullPage: true });
    for (const c of CASES) {
      await page.locator(`section[id="${c.id}"]`).screenshot({ path: path.join(shotDir, `${c.id}.png`) });
    }
    // One logo up close, to judge letter outlines and the axis.
    const zoom = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 3 });
    const zoomSvg = readFileSync(path.join(outDir, 'MA0004.1.svg'), 'utf8');
    const [, w, h] = /width="([\d.]+)" height="([\d.]+)"/.exec(zoomSvg) ?? ['', '200', '150'];
    await zoom.goto(pathToFileURL(path.resolve(outDir, 'MA0004.1.svg')).href);
    await zoom.screenshot({ path: path.join(shotDir, 'MA0004.1-zoom.png'), clip: { x: 0, y: 0, width: Number(w), height: Number(h) } });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${htmlPath} and PNGs in ${shotDir}`);
}

await main();
