// The type check of the whole project (tsconfig.json: generator, scripts,
// tests), as `npm run typecheck` runs it: inside `npm test`'s unit group, so
// that it runs beside the unit tests and the fixture site's build instead of
// before all of them.
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from './support/paths.ts';
import { run } from './support/run.ts';

it('tsc --noEmit finds no type error', async () => {
  const tsc = path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
  const r = await run(process.execPath, [tsc, '--noEmit', '--pretty', 'false'], { timeout: 170_000 });
  expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
  expect(r.status).toBe(0);
}, 180_000);
