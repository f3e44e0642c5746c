// The order test files start in: the longest first, so that the two forks
// end together (vitest's own order on a fresh clone is by file size, which
// ran the 20 s incremental-equals-full.test.ts last, the other fork idle).
// Seconds each file took in `npm test` on a fresh clone (a quiet 2-core
// machine, commit fb95421); only the order depends on them, so they need
// no update unless a file becomes one of the long ones. A file not listed
// (new, or under 2 s) starts after those listed, largest first. Once vitest
// has timed a run (node_modules/.vite/vitest), its own durations order
// the files, as vitest does.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Readonly<Record<string, number>> = {
  'test/browser/people.test.ts': 70,
  'test/browser/browse.test.ts': 46,
  'test/edge/compact.test.ts': 27,
  'test/e2e/base-path-and-shards.test.ts': 21,
  'test/e2e/netlify-routing.test.ts': 19,
  'test/typecheck.test.ts': 18,
  'test/e2e/links.test.ts': 17,
  'test/dataset/hostile-input.test.ts': 17,
  'test/build/input-files.test.ts': 17,
  'test/fuzz/dataset.test.ts': 15,
  'test/build/incremental-equals-full.test.ts': 15,
  'test/mirror/mirror.test.ts': 13,
  'test/edge/handler-oracle.test.ts': 13,
  'test/build/incremental.test.ts': 13,
  'test/hosts/conformance.test.ts': 12,
  'test/formats/hostile.test.ts': 12,
  'test/e2e/path-links.test.ts': 12,
  'test/edge/engines.test.ts': 11,
  'test/edge/engines-grid.test.ts': 11,
  'test/build/determinism.test.ts': 11,
  'test/e2e/security-headers.test.ts': 10,
  'test/formats/roundtrip.test.ts': 8,
  'test/fuzz/cli.test.ts': 7,
  'test/e2e/clients-netlify.test.ts': 7,
  'test/build/bad-input.test.ts': 6,
  'test/server/node-server.test.ts': 4,
  'test/build/problem-report.test.ts': 4,
  'test/browser/escaping.test.ts': 4,
  'test/write/output-links.test.ts': 3,
  'test/write/incremental.test.ts': 3,
  'test/write/out-folder.test.ts': 2,
  'test/hosts/serve.test.ts': 2,
  'test/dataset/official-2026.test.ts': 2,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const file = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId);
    const known = (spec: TestSpecification) => SECONDS[file(spec)];
    const timed = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${file(spec)}`);
    // A run vitest has timed: its order (failed first, then longest).
    if (files.every((spec) => timed(spec) !== undefined)) return super.sort(files);
    const bySize = await super.sort(files);
    return [...bySize].sort((a, b) => (known(b) ?? 0) - (known(a) ?? 0));
  }
}
