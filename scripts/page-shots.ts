// Screenshots of pages for people at desktop (1280 px) and phone (390 px)
// width in Debian's Chromium, and each page's scroll width (wider than the
// screen means a horizontal scroll bar). For looking at the pages, not a test.
//
//   npx tsx scripts/page-shots.ts ORIGIN OUT_DIR PATH...
//   e.g. npx tsx scripts/page-shots.ts http://127.0.0.1:8080 /tmp/shots / /api/v1/matrix/page/1/
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

async function main(): Promise<void> {
  const [origin, out, ...pages] = process.argv.slice(2);
  if (!origin || !out || pages.length === 0) {
    process.stderr.write('usage: npx tsx scripts/page-shots.ts ORIGIN OUT_DIR PATH...\n');
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      for (const p of pages) {
        await page.goto(origin + p);
        await page.waitForLoadState('networkidle');
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        const file = path.join(out, `${width}${p.replace(/[^a-zA-Z0-9]+/g, '_')}.png`);
        await page.screenshot({ path: file, fullPage: true });
        process.stdout.write(`${width} px ${p}: scroll width ${scrollWidth}${scrollWidth > width ? ' (WIDER THAN THE SCREEN)' : ''} → ${file}\n`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

void main();
