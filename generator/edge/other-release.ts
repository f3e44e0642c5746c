// release=<year> on a request: another release the site holds answers from
// its own site (site.ts under()); a release the site does not hold is a 404
// naming the ones it does.
import { error } from './responses.ts';
import type { Loaded } from './state.ts';

type Get = (key: string) => string | undefined;

/** The 404 for a release= the site does not hold; null when the release is this one or not asked. */
export function releaseRefused(request: Request, state: Loaded, get: Get, callback: string | undefined): Response | null {
  const release = get('release');
  if (!release || release === String(state.index.release.year)) return null;
  const held = state.index.releases ?? [{ year: state.index.release.year, name: state.index.release.name, prefix: '' }];
  const names = held.map((r) => `${r.name} (release=${r.year})`).join(' and ');
  return error(request, 404, `Release "${release}" is not available: this mirror serves ${names}.`, callback);
}

/** Another release held by the site that release= asks for: where its site lies, or null (this one, none asked, or one not held). */
export function otherReleaseOf(state: Loaded, get: Get): string | null {
  const release = get('release');
  if (!release || release === String(state.index.release.year)) return null;
  return state.index.releases?.find((r) => String(r.year) === release && r.prefix !== '')?.prefix ?? null;
}
