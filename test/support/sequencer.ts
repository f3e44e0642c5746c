// The order test files start in: the longest first, so that the two forks
// end together (vitest's own order on a fresh clone is by file size, which
// ran the 20 s incremental-equals-full.test.ts last, the other fork idle).
// Seconds each file took in `npm test` on a fresh clone (a quiet 2-core
// machine, commit 27e865f); only the order depends on them, so they need
// no update unless a file becomes one of the long ones. A file not listed
// (new, or under 2 s) starts after those listed, largest first. Once vitest
// has timed a run (node_modules/.vite/vitest), its own durations order
// the files, as vitest does.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Readonly<Record<string, number>> = {
  'test/browser/people.test.ts': 81,
  'test/browser/browse.test.ts': 40,
  'test/hosts/conformance.test.ts': 37,
  'test/e2e/netlify-routing.test.ts': 37,
  'test/e2e/clients-netlify.test.ts': 34,
  'test/fuzz/dataset.test.ts': 25,
  'test/edge/compact.test.ts': 22,
  'test/build/input-files.test.ts': 22,
  'test/e2e/base-path-and-shards.test.ts': 20,
  'test/build/incremental-equals-full.test.ts': 20,
  'test/e2e/path-links.test.ts': 16,
  'test/formats/hostile.test.ts': 15,
  'test/e2e/links.test.ts': 15,
  'test/dataset/hostile-input.test.ts': 15,
  'test/edge/engines.test.ts': 14,
  'test/build/determinism.test.ts': 13,
  'test/mirror/mirror.test.ts': 10,
  'test/edge/handler-oracle.test.ts': 10,
  'test/e2e/security-headers.test.ts': 9,
  'test/typecheck.test.ts': 8,
  'test/edge/engines-grid.test.ts': 8,
  'test/fuzz/cli.test.ts': 7,
  'test/formats/roundtrip.test.ts': 7,
  'test/build/bad-input.test.ts': 7,
  'test/write/output-links.test.ts': 5,
  'test/browser/escaping.test.ts': 5,
  'test/write/out-folder.test.ts': 4,
  'test/server/node-server.test.ts': 4,
  'test/formats/golden.test.ts': 4,
  'test/dataset/load.test.ts': 4,
  'test/build/problem-report.test.ts': 4,
  'test/build/incremental.test.ts': 4,
  'test/write/incremental.test.ts': 3,
  'test/hosts/serve.test.ts': 3,
  'test/e2e/list-links-netlify.test.ts': 3,
  'test/routes/table.test.ts': 2,
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
