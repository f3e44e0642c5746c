// A render worker: renders the tasks it is sent and returns their bytes to
// the main thread, whose writer alone touches the output folder. It
// rebuilds the format context and the URL layout from the data it is given.
import { parentPort } from 'node:worker_threads';
import type { Matrix } from '../dataset/types.ts';
import type { FormatContext } from '../formats/types.ts';
import { formatContext, renderTask } from './render.ts';
import { decodeTask } from './wire.ts';
import type { BatchResult, WorkerInit } from './pool.ts';

let contexts: FormatContext[] = [];
/** The records the tasks show, by number (wire.ts MatrixRefs): each sent once, before the first task that shows it. */
const matrices = new Map<number, Matrix>();

parentPort!.on('message', (message: { init: WorkerInit } | { records: [number, Matrix][] } | { forget: true } | { id: number; tasks: Uint8Array[] }) => {
  if ('init' in message) {
    const init = message.init;
    contexts = (init.parts ?? []).map((p) => formatContext(p.release, p.layout));
    return;
  }
  if ('records' in message) {
    for (const [id, m] of message.records) matrices.set(id, m);
    return;
  }
  // The batches before this message were the last to show these records (MatrixRefs.take).
  if ('forget' in message) {
    matrices.clear();
    return;
  }
  let result: BatchResult = { id: message.id, data: new Uint8Array(0), lengths: [] };
  try {
    const contents = [];
    for (const bytes of message.tasks) contents.push(...renderTask(decodeTask(bytes, matrices), contexts));
    const lengths = contents.map((c) => (typeof c === 'string' ? Buffer.byteLength(c) : c.length));
    // One buffer of its own (not from Node's shared pool), so that it can be moved to the main thread.
    const data = Buffer.allocUnsafeSlow(lengths.reduce((a, b) => a + b, 0));
    let offset = 0;
    contents.forEach((c, i) => {
      if (typeof c === 'string') data.write(c, offset);
      else c.copy(data, offset);
      offset += lengths[i];
    });
    result = { id: message.id, data, lengths };
  } catch (error) {
    result.error = (error as Error).stack ?? String(error);
  }
  parentPort!.postMessage(result, result.data.byteLength > 0 ? [result.data.buffer as ArrayBuffer] : []);
});
parentPort!.postMessage({ ready: true });
