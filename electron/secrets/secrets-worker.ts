/**
 * The secret radar's worker thread: one SecretsService (its scans and cache) answering
 * secrets/secrets-client.ts through service-host.ts.
 */
import { workerData } from 'node:worker_threads';
import { SecretsService } from './secrets-service';
import type { SecretsWorkerData } from './secrets-client';
import { serviceHost } from '../threads/service-host';

const host = serviceHost('secrets-worker');
const data = workerData as SecretsWorkerData;
const service = new SecretsService({
  roots: data.roots,
  env: data.env,
  gate: host.gate,
  onStatus: (status) => host.status(status),
});

host.serve({
  update: (paths: readonly string[]) => service.update(paths),
  secretsOf: (path: string) => service.secretsOf(path),
  counts: () => service.counts(),
});
