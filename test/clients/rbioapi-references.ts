// Computes, in a child process of the test, the release-derived digest of
// every rbioapi call (rbioapi-expected.ts) for each release of the site:
// loading JASPAR 2024 and 2026 takes 15-20 s of synchronous work, too long
// for a test worker's event loop (test/support/event-loop.ts).
//
//   node --import tsx test/clients/rbioapi-references.ts <calls.json> <data folder>...
//
// Prints one JSON object: { "<year>": { "<call>": { digest } | { none: why } } }.
// A call is digested with its arguments minus `release`: the release is the
// one each digest is computed from.
import { readFileSync } from 'node:fs';
import { readReleases } from '../../generator/build.ts';
import { expectedDigest, type Args, type Digest } from './rbioapi-expected.ts';

export type References = Record<string, Record<string, { digest: Digest } | { none: string }>>;

const [callsFile, ...dataDirs] = process.argv.slice(2);
if (!callsFile || dataDirs.length === 0) throw new Error('usage: rbioapi-references.ts <calls.json> <data folder>...');
const calls = (JSON.parse(readFileSync(callsFile, 'utf8')) as { calls: { name: string; fn: string; args: Args }[] }).calls;
const references: References = {};
for (const { release } of readReleases({ dataDir: dataDirs })) {
  const byCall: References[string] = {};
  for (const call of calls) {
    const { release: _year, ...args } = call.args;
    try {
      byCall[call.name] = { digest: expectedDigest(release, call.fn, args) };
    } catch (error) {
      byCall[call.name] = { none: (error as Error).message };
    }
  }
  references[String(release.info.year)] = byCall;
}
process.stdout.write(`${JSON.stringify(references)}\n`);
