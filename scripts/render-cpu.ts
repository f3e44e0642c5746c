// The render step's CPU alone: the site planned, then every task rendered
// on this thread (or by --workers N; nothing written), each file's path and bytes
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

const { values } = parseArgs({ options: { data: { type: 'string', multiple: true }, list: { type: 'string' }, workers: { type: 'string' } } });
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const start = cpu();
const { plan } = planSite({ dataDir: values.data ?? shippedReleases(), outDir: '/nonexistent', baseUrl: DEFAULT_BASE_URL });
const planned = cpu();
// The digest is of every file's path and SHA-1, sorted: workers hand files over in the order their batches end.
const listed: string[] = [];
let files = 0;
let bytes = 0;
// --workers N: rendered by N render workers as a build renders (their CPU is this process's).
await renderPlan(plan, { workers: Number(values.workers ?? 0) }, {
  key() {},
  reuse: () => false,
  file(rel: string, content: WriteContent) {
    files++;
    const own = createHash('sha1');
    for (const piece of typeof content === 'string' || Buffer.isBuffer(content) ? [content] : content.pieces()) {
      const b = typeof piece === 'string' ? Buffer.from(piece) : piece;
      own.update(b);
      bytes += b.length;
    }
    listed.push(`${rel} ${own.digest('hex')}`);
  },
});
const rendered = cpu();
const list = `${listed.sort().join('\n')}\n`;
// --list FILE: that list, to find which files two commits render differently.
if (values.list) writeFileSync(values.list, list);
process.stdout.write(`${JSON.stringify({ files, bytes, digest: createHash('sha256').update(list).digest('hex'), cpu: { plan: planned - start, render: rendered - planned } })}\n`);
