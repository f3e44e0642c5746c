// npm run verify -- DIR: checks a mirror against its manifest (generator/mirror/verify.ts).
// Prints one line per missing, altered or extra file and exits 1, or one
// summary line and exits 0; 2 for a usage error or a missing/bad manifest.
import path from 'node:path';
import { MANIFEST, rel } from '../generator/mirror/layout.ts';
import { intact, verifyMirror, type VerifyReport } from '../generator/mirror/verify.ts';

const USAGE = 'Usage: npm run verify -- DIR   (DIR: an unpacked mirror, or the built site, e.g. public)\n';

function main(args: string[]): number {
  if (args.length !== 1 || args[0] === '-h' || args[0] === '--help') {
    process.stderr.write(USAGE);
    return args.length === 1 ? 0 : 2;
  }
  const dir = args[0];
  const started = performance.now();
  let report: VerifyReport;
  try {
    report = verifyMirror(dir);
  } catch (error) {
    process.stderr.write(`verify: ${(error as Error).message}\n`);
    return 2;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const manifest = path.join(dir, rel(MANIFEST));
  if (intact(report)) {
    process.stdout.write(`${dir}: intact, all ${report.listed.toLocaleString('en-US')} files (${(report.bytes / 1e6).toFixed(1)} MB) listed in ${manifest} match, nothing else there (manifest sha256 ${report.manifestSha256}; ${seconds} s)\n`);
    return 0;
  }
  for (const file of report.missing) process.stdout.write(`missing  ${file}\n`);
  for (const file of report.altered) process.stdout.write(`altered  ${file}\n`);
  for (const file of report.extra) process.stdout.write(`extra    ${file}\n`);
  process.stderr.write(`${dir}: does not match ${manifest}: ${report.missing.length} missing, ${report.altered.length} altered, ${report.extra.length} extra (of ${report.listed.toLocaleString('en-US')} files listed)\n`);
  return 1;
}

process.exitCode = main(process.argv.slice(2));
