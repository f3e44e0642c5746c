// A render worker: renders the tasks it is sent and writes their files
// (write/files.ts), so that rendering and writing both use every core. It
// rebuilds the format context (release and the site's layout, which the
// pages' links follow) from the data of its init message.
import { parentPort } from 'node:worker_threads';
import type { FormatContext } from '../formats/types.ts';
import { writeIfChanged } from '../write/files.ts';
import { formatContext, renderTask } from './render.ts';
import { decodeTask } from './wire.ts';
import type { BatchResult, WorkerInit } from './pool.ts';

let root = '';
let compare = true;
let context: FormatContext | null = null;
const ensured = new Set<string>();

parentPort!.on('message', (message: { init: WorkerInit } | { id: number; tasks: Uint8Array[] }) => {
  if ('init' in message) {
    const init = message.init;
    context = init.release && init.layout ? formatContext(init.release, init.layout) : null;
    root = init.root;
    compare = init.compare;
    return;
  }
  const result: BatchResult = { id: message.id, sizes: [], ctimes: [], written: [] };
  try {
    for (const bytes of message.tasks) {
      const task = decodeTask(bytes);
      const contents = renderTask(task, context!);
      task.paths.forEach((p, i) => {
        const w = writeIfChanged(root, p, contents[i], compare, ensured);
        result.sizes.push(w.size);
        result.ctimes.push(w.ctimeMs);
        result.written.push(w.written ? 1 : 0);
      });
    }
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
  }
  parentPort!.postMessage(result);
});
parentPort!.postMessage({ ready: true });
