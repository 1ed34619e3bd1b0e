/**
 * The search worker thread: one SearchService (the index, its passes, queries, `re:`) answering
 * repo/search/search-client.ts. The app's open gate is mirrored here, so indexing still gives way
 * while a session opens in the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { OpenGate } from '../repo/open-gate';
import { errorValue } from './error-value';
import { SearchService } from '../repo/search/search-service';
import type { FromSearchWorker, SearchCall, SearchWorkerData, ToSearchWorker } from '../repo/search/search-client';

const port = parentPort;
if (!port) throw new Error('search-worker runs only as a worker thread');

const data = workerData as SearchWorkerData;
const gate = new OpenGate();
let release: (() => void) | null = null;
const send = (m: FromSearchWorker): void => port.postMessage(m);

const service = new SearchService({
  roots: data.roots,
  env: data.env,
  gate,
  onStatus: (status) => send({ kind: 'status', status }),
  ...(data.regexLimitMs !== undefined ? { regexLimitMs: data.regexLimitMs } : {}),
});

function run(call: SearchCall): Promise<unknown> {
  switch (call.method) {
    case 'update':
      return service.update(call.paths);
    case 'syncFile':
      return service.syncFile(call.path);
    case 'query': {
      const { paths, ...opts } = call.opts;
      return service.query(call.text, { ...opts, ...(paths ? { paths: new Set(paths) } : {}) });
    }
  }
}

port.on('message', (m: ToSearchWorker) => {
  if (m.kind === 'gate') {
    if (m.held && !release) void gate.during(new Promise<void>((resolve) => (release = resolve)));
    else if (!m.held && release) {
      release();
      release = null;
    }
    return;
  }
  run(m.call).then(
    (value) => send({ kind: 'reply', id: m.id, ok: true, value }),
    (err: unknown) => send({ kind: 'reply', id: m.id, ok: false, error: errorValue(err) }),
  );
});
