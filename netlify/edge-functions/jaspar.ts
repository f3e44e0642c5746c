// The edge handler on Netlify Edge Functions, declared in netlify.toml
// ([[edge_functions]], path /api/*). The adapter is
// generator/edge/hosts/netlify.ts; `netlify dev` runs it offline (see
// generator/edge/hosts/local-engines.ts).
import { createHandler } from '../../generator/edge/handler.ts';
import { netlifyEdgeFunction } from '../../generator/edge/hosts/netlify.ts';

export default netlifyEdgeFunction(createHandler());
