// node --import tsx scripts/writer-ab.ts SITE OUT [SUBFOLDER]: the writer alone, with and without hard
// links of files of the same bytes (write/same-bytes.ts), on the files of a built site.
//
// Every file under SITE (or SITE/SUBFOLDER) is read (outside the timing) and handed to two writers in turn,
// one with links and one without (which goes first alternates), writing OUT-on and OUT-off, two new folders:
// both meet the file system in the same state. Full builds on this shared machine are no A/B for this: the
// kernel time of creating a file went from about 45 to 160 µs and back within minutes (ext4 without a journal
// scanning the inodes others had just freed). Prints each writer's CPU in its calls (user, system) and in
// close(). OUT-on and OUT-off are left for the caller to compare or delete.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { OutputPlan, SiteWriter } from '../generator/write/writer.ts';

const [site, out, under = ''] = process.argv.slice(2);
if (!site || !out) {
  process.stderr.write('Usage: node --import tsx scripts/writer-ab.ts SITE OUT [SUBFOLDER]\n');
  process.exit(2);
}
const files: string[] = [];
const walk = (rel: string) => {
  for (const e of readdirSync(path.join(site, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(r);
    else if (e.isFile()) files.push(r);
  }
};
walk(under);
const plan = new OutputPlan();
for (const f of files) plan.add(f, '');
const runs = [false, true].map((links) => ({ links, writer: new SiteWriter(`${out}-${links ? 'on' : 'off'}`, { links }), user: 0, sys: 0 }));
for (const r of runs) r.writer.open(plan);
files.forEach((f, n) => {
  const bytes = readFileSync(path.join(site, f));
  for (const r of n % 2 === 0 ? runs : [...runs].reverse()) {
    const before = process.cpuUsage();
    r.writer.file(f, bytes);
    const spent = process.cpuUsage(before);
    r.user += spent.user / 1e6;
    r.sys += spent.system / 1e6;
  }
});
for (const r of runs) {
  const before = process.cpuUsage();
  r.writer.close(plan, { rendered: 0, reused: 0 });
  r.writer.commit();
  const spent = process.cpuUsage(before);
  process.stdout.write(`${JSON.stringify({ links: r.links, files: files.length, user: +r.user.toFixed(2), sys: +r.sys.toFixed(2), closeUser: spent.user / 1e6, closeSys: spent.system / 1e6 })}\n`);
}
