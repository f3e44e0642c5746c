// JSONP as djangorestframework-jsonp writes it: callback(<json>); with the
// default callback name. A static file cannot honour ?callback=<name>.
import { bodyJson } from './json.ts';
import type { Format } from './types.ts';

export const JSONP_CALLBACK = 'callback';

export const jsonp: Format = {
  id: 'jsonp',
  mediaType: 'application/javascript; charset=utf-8',
  extension: 'js',
  render: (resource) => `${JSONP_CALLBACK}(${bodyJson(resource)});`,
};
