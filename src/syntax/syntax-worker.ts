// A worker thread that parses TypeScript and JavaScript files for their
// syntax facts (see typescript.ts). Answers one message per request:
// { id, data } or { id, error }.
import { parentPort } from 'node:worker_threads';
import { saveTypescriptCache } from './load-typescript.js';
import { typescriptFacts } from './typescript.js';

parentPort!.on('message', ({ id, path, text }: { id: number; path: string; text: string }) => {
  let reply: { id: number; data?: unknown; error?: string };
  let transfer: ArrayBuffer[] = [];
  try {
    const data = typescriptFacts(path, text).toData();
    reply = { id, data };
    transfer = [data.kinds, data.argumentCounts, data.declarations, data.aliases, data.moduleNames, data.exportNames].map(
      (a) => a.buffer as ArrayBuffer,
    );
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  // After a first file the parser's functions are compiled: the code cache
  // saves them with the module (once, and only when there was none to use).
  // Before answering, not after: the parent terminates this thread once it
  // has its answers, which would leave a cache unwritten or half renamed.
  saveTypescriptCache();
  parentPort!.postMessage(reply, transfer);
});
