// node scripts/build-child.mjs OUT DATA...: one build of the DATA folders into OUT (base URL
// http://localhost:8080) as `npm run build` starts it, from the generator's bundle (generator/start.mjs:
// no tsx, whose loader alone is about 0.3 s of CPU a start), for the benches (scripts/bench.ts,
// scripts/rebuild-profile.ts). Prints build()'s report and the process's own resource usage (its worker
// threads included) as one JSON line. Plain JavaScript: started without tsx.
import { readFileSync } from 'node:fs';
import { buildFlags, bundled } from '../generator/start.mjs';

buildFlags();

const [out, ...data] = process.argv.slice(2);
const { build } = await bundled('generator/build.ts');
const report = await build({ dataDir: data, outDir: out, baseUrl: 'http://localhost:8080' });
const u = process.resourceUsage();
process.stdout.write(`${JSON.stringify({ report, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, sys: u.systemCPUTime / 1e6, maxRssMb: u.maxRSS / 1024, main: mainThreadCpu() })}\n`);

/** The main thread's own user and system CPU seconds (Linux: /proc, in clock ticks of 10 ms), apart from the
 *  render and gzip workers': the writer makes every file on it, so its system time is the file system's cost. */
function mainThreadCpu() {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100 };
  } catch {
    return null;
  }
}
