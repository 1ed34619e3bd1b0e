/**
 * Request bodies as JSON values. A small body is parsed here; an upload (a whole session file, up
 * to 512 MiB) is parsed in a worker thread (threads/pool.ts): its bytes move there without a
 * copy, and the seconds JSON.parse takes on such a body never stop the loop that answers requests.
 */
import { WorkerPool } from '../threads/pool';
import { movableBuffer } from '../threads/movable';

/** A body this big or more is parsed in the worker. */
export const PARSE_IN_WORKER_FROM = 1024 * 1024;

/** The worker (plain JS, run with `eval`: it needs nothing but the engine). */
const PARSER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, task }) => {
  let value;
  try {
    value = JSON.parse(new TextDecoder().decode(new Uint8Array(task.bytes)));
  } catch (err) {
    return parentPort.postMessage({ id, ok: false, error: { code: 'invalid_argument', message: err.message } });
  }
  parentPort.postMessage({ id, ok: true, value });
});
`;

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

export class BodyParser {
  private pool: WorkerPool | null = null;

  constructor(private readonly opts: { workers: number; timeoutMs: number; log: (m: string) => void }) {}

  async parse(bytes: Buffer): Promise<Parsed> {
    if (bytes.length < PARSE_IN_WORKER_FROM) {
      try {
        return { ok: true, value: JSON.parse(bytes.toString('utf8')) as unknown };
      } catch (err) {
        return { ok: false, message: (err as Error).message };
      }
    }
    this.pool ??= new WorkerPool({
      script: PARSER,
      eval: true,
      size: this.opts.workers,
      timeoutMs: this.opts.timeoutMs,
      onWorkerLost: (reason) => this.opts.log(`body parser: ${reason}`),
    });
    const own = movableBuffer(bytes);
    try {
      return { ok: true, value: await this.pool.run({ bytes: own }, { transfer: [own] }) };
    } catch (err) {
      const e = err as { code?: string; message: string };
      if (e.code === 'invalid_argument') return { ok: false, message: e.message };
      throw err;
    }
  }

  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }
}
