/**
 * The app's secret radar, run in a worker thread (secrets-worker.ts, through
 * service-client.ts): scanning every session's text with secretlint's rules happens there, so the
 * loop that answers requests only routes. Same methods as SecretsService.
 */
import { ServiceClient } from '../threads/service-client';
import { workerScript } from '../threads/worker-script';
import type { OpenGate } from '../threads/open-gate';
import {
  IDLE_SECRETS_STATUS,
  secretsCachePath,
  type SecretsServiceOptions,
  type SecretsStatus,
  type SessionSecrets,
} from './secrets-service';

/** What the worker is started with (cloned into it). */
export interface SecretsWorkerData {
  roots: readonly string[];
  env: Record<string, string | undefined>;
}

export interface SecretsClientOptions extends Pick<SecretsServiceOptions, 'roots' | 'env' | 'onStatus'> {
  gate?: OpenGate;
  onWorkerLost?: (reason: string) => void;
}

export class SecretsClient {
  readonly cachePath: string;
  private readonly client: ServiceClient<SecretsStatus>;

  constructor(options: SecretsClientOptions) {
    // Checked here: a cache folder inside a root turns the radar off at once, as in-process.
    const env = { ...(options.env ?? process.env) };
    this.cachePath = secretsCachePath(options.roots, env);
    this.client = new ServiceClient<SecretsStatus>({
      name: 'the secret radar',
      script: workerScript('secrets-worker', __dirname),
      workerData: { roots: options.roots, env } satisfies SecretsWorkerData,
      ...(options.gate ? { gate: options.gate } : {}),
      status: { ...IDLE_SECRETS_STATUS },
      stopped: (s) => ({ ...s, scanning: false }),
      ...(options.onStatus ? { onStatus: options.onStatus } : {}),
      ...(options.onWorkerLost ? { onWorkerLost: options.onWorkerLost } : {}),
    });
  }

  getStatus(): SecretsStatus {
    return this.client.status();
  }

  update(paths: readonly string[]): Promise<void> {
    return this.client.call<void>('update', [paths]);
  }

  /** Scans the whole listing again in a new worker (the last one died mid-pass). */
  listed(paths: readonly string[]): Promise<void> {
    this.client.resumeBy('update', [paths]);
    return this.update(paths);
  }

  secretsOf(path: string): Promise<SessionSecrets | undefined> {
    return this.client.call<SessionSecrets | undefined>('secretsOf', [path]);
  }

  counts(): Promise<Map<string, number>> {
    return this.client.call<Map<string, number>>('counts', []);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
