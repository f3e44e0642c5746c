// The formats in the order the real service lists them. Adding a format is
// one module and one line here.
import { api } from './api.ts';
import { bed } from './bed.ts';
import { jaspar } from './jaspar.ts';
import { json } from './json.ts';
import { jsonp } from './jsonp.ts';
import { meme } from './meme.ts';
import { pfm } from './pfm.ts';
import { transfac } from './transfac.ts';
import { yamlFormat } from './yaml.ts';
import type { Format } from './types.ts';

export const FORMAT_IDS = ['api', 'json', 'jsonp', 'jaspar', 'meme', 'transfac', 'pfm', 'yaml', 'bed'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];
/** What a request without ?format= gets. */
export const DEFAULT_FORMAT: FormatId = 'json';

export const FORMATS: Record<FormatId, Format> = {
  api,
  json,
  jsonp,
  jaspar,
  meme,
  transfac,
  pfm,
  yaml: yamlFormat,
  bed,
};
