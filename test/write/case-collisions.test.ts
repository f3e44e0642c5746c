// Paths that differ only in case (issue 15.8) are one path on macOS and
// Windows file systems and in the archive unpacked there: the plan refuses
// them, before anything is rendered or written, as dataset problems naming
// both paths and the values.
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../generator/dataset/diagnostics.ts';
import { OutputPlan } from '../../generator/write/writer.ts';

const problemsOf = (plan: OutputPlan, sourceOf?: (v: string) => string | null) => {
  try {
    plan.checkCaseClashes(sourceOf);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetError);
    return (error as DatasetError).problems;
  }
  return [];
};

describe('case collisions in the output plan', () => {
  // The clash is reported at the top-most path that differs (what lies under it clashes too).
  it.each([
    ['collections', 'api/v1/collections/CORE/index.json', 'api/v1/collections/core/index.json', 'api/v1/collections/CORE', 'api/v1/collections/core', 'CORE', 'core'],
    ['matrix ids', 'api/v1/matrix/MA0004.1/index.json', 'api/v1/matrix/ma0004.1/index.json', 'api/v1/matrix/MA0004.1', 'api/v1/matrix/ma0004.1', 'MA0004.1', 'ma0004.1'],
    ['tax groups', 'api/v1/taxon/plants/index.json', 'api/v1/taxon/Plants/index.html', 'api/v1/taxon/plants', 'api/v1/taxon/Plants', 'plants', 'Plants'],
    ['file names', 'static/logos/svg/MA0004.1.svg', 'static/logos/svg/ma0004.1.svg', 'static/logos/svg/MA0004.1.svg', 'static/logos/svg/ma0004.1.svg', 'MA0004.1.svg', 'ma0004.1.svg'],
    ['a file against a folder', 'download/A', 'download/a/x.txt', 'download/A', 'download/a', 'A', 'a'],
  ])('%s', (_name, first, second, firstAt, secondAt, a, b) => {
    const plan = new OutputPlan();
    plan.add(first, '1');
    plan.add(second, '2');
    const problems = problemsOf(plan, (v) => (v === a ? 'collection of MA0004.1' : null));
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toContain(`output path differs only in case from ${firstAt}: "${a}" (collection of MA0004.1) and "${b}" name the same file`);
    expect(problems[0].file).toBe(secondAt);
    expect((() => { try { plan.checkCaseClashes(); } catch (e) { return (e as Error).message; } })()).toMatch(/^the dataset has 1 problem:\n {2}.+: output path differs only in case .+ \(fix: spell the value one way throughout the release\)$/);
  });

  it('lists every clash at once; the same spelling twice is one folder, not a clash', () => {
    const plan = new OutputPlan();
    plan.add('api/v1/collections/CORE/index.json', '');
    plan.add('api/v1/collections/CORE/index.html', '');
    plan.add('api/v1/collections/Core/index.json', '');
    plan.add('api/v1/collections/core/index.json', '');
    expect(problemsOf(plan).map((p) => p.file)).toEqual(['api/v1/collections/Core', 'api/v1/collections/core']);
  });

  it('accepts paths that differ in more than case', () => {
    const plan = new OutputPlan();
    plan.add('api/v1/matrix/MA0004.1/index.json', '');
    plan.add('api/v1/matrix/MA0004.2/index.json', '');
    expect(() => plan.checkCaseClashes()).not.toThrow();
  });

  // The plan keeps spellings by a 32-bit hash of the lower-case path (pipeline/output-plan.ts Spellings):
  // "f55zx.json" and "fgpcd.json" share one (FNV-1a), and must stay two paths that do not clash.
  it('tells apart two paths whose lower-case spellings share a hash, and finds a clash with either', () => {
    const plan = new OutputPlan();
    plan.add('f55zx.json', '');
    plan.add('fgpcd.json', '');
    expect(() => plan.checkCaseClashes()).not.toThrow();
    plan.add('FGPCD.json', '');
    plan.add('F55ZX.json', '');
    expect(problemsOf(plan).map((p) => p.file)).toEqual(['FGPCD.json', 'F55ZX.json']);
  });
});
