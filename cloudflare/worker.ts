// The edge handler as a Cloudflare Worker in front of the built site
// (wrangler.jsonc: main, assets with run_worker_first). The adapter is
// generator/edge/hosts/cloudflare.ts.
import { createHandler } from '../generator/edge/handler.ts';
import { cloudflareWorker } from '../generator/edge/hosts/cloudflare.ts';

export default cloudflareWorker(createHandler());
