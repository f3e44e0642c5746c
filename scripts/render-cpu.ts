// The render step's CPU alone: the site planned, then every task rendered
// on this thread (no workers, nothing written), each file's path and bytes
// hashed in plan order. Two commits that print the same digest render the
// same bytes; the CPU of the rendering is comparable across commits without
// the kernel's share of writing 285,000 files, which grows with whatever
// else writes to the disk. Used to measure changes to formats/, logos/ and
// pipeline/render.ts (issue 22):
//   node --import tsx scripts/render-cpu.ts [--data DIR]...   → JSON on stdout
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_BASE_URL, planSite, shippedReleases } from '../generator/build.ts';
import type { WriteContent } from '../generator/pipeline/output-plan.ts';
import { renderPlan } from '../generator/pipeline/schedule.ts';

const { values } = parseArgs({ options: { data: { type: 'string', multiple: true }, list: { type: 'string' } } });
// --list FILE: each file's path and SHA-1, one a line, to find which files two commits render differently.
const listed: string[] | null = values.list ? [] : null;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const start = cpu();
const { plan } = planSite({ dataDir: values.data ?? shippedReleases(), outDir: '/nonexistent', baseUrl: DEFAULT_BASE_URL });
const planned = cpu();
const digest = createHash('sha256');
let files = 0;
let bytes = 0;
const take = (chunk: string | Buffer) => {
  const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  digest.update(b);
  bytes += b.length;
};
await renderPlan(plan, { workers: 0 }, {
  key() {},
  reuse: () => false,
  file(rel: string, content: WriteContent) {
    files++;
    digest.update(`\0${rel}\0`);
    const pieces = typeof content === 'string' || Buffer.isBuffer(content) ? [content] : content.pieces();
    const own = listed ? createHash('sha1') : null;
    for (const piece of pieces) {
      take(piece);
      own?.update(piece);
    }
    if (own) listed!.push(`${rel} ${own.digest('hex')}`);
  },
});
const rendered = cpu();
if (listed) writeFileSync(values.list!, `${listed.join('\n')}\n`);
process.stdout.write(`${JSON.stringify({ files, bytes, digest: digest.digest('hex'), cpu: { plan: planned - start, render: rendered - planned } })}\n`);
