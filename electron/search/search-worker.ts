/**
 * The search worker thread: one SearchService (the index, its passes, queries, `re:`) answering
 * search/search-client.ts through service-host.ts.
 */
import { workerData } from 'node:worker_threads';
import { SearchService } from './search-service';
import type { SearchWorkerData, WireQueryArgs } from './search-client';
import { serviceHost } from '../threads/service-host';

const host = serviceHost('search-worker');
const data = workerData as SearchWorkerData;
const service = new SearchService({
  roots: data.roots,
  env: data.env,
  gate: host.gate,
  onStatus: (status) => host.status(status),
  ...(data.regexLimitMs !== undefined ? { regexLimitMs: data.regexLimitMs } : {}),
});

host.serve(
  {
    update: (paths: readonly string[]) => service.update(paths),
    syncFile: (path: string) => service.syncFile(path),
    query: (text: string, { paths, ...opts }: WireQueryArgs) =>
      service.query(text, { ...opts, ...(paths ? { paths: new Set(paths) } : {}) }),
  },
  () => service.close(),
);
