/**
 * The worker side of service-client.ts: answers each call with the named method, posts the
 * service's status as it changes, and holds its own OpenGate while the app's is held.
 */
import { parentPort } from 'node:worker_threads';
import { OpenGate } from './open-gate';
import { errorValue } from './error-value';
import type { FromService, ToService } from './service-client';

export type Methods = Record<string, (...args: never[]) => Promise<unknown>>;

export interface Host {
  /** The gate the service's passes pause at. */
  gate: OpenGate;
  status(status: unknown): void;
  /** Starts answering calls; `close` is run when the client closes, and the thread then exits. */
  serve(methods: Methods, close?: () => void): void;
}

export function serviceHost(name: string): Host {
  const port = parentPort;
  if (!port) throw new Error(`${name} runs only as a worker thread`);
  const send = (m: FromService): void => port.postMessage(m);
  const gate = new OpenGate();
  let release: (() => void) | null = null;
  return {
    gate,
    status: (status) => send({ kind: 'status', status }),
    serve(methods, close) {
      port.on('message', (m: ToService) => {
        if (m.kind === 'close') {
          // A turn of this thread's loop: no call into native code is under way.
          try {
            close?.();
          } finally {
            process.exit(0);
          }
        }
        if (m.kind === 'gate') {
          if (m.held && !release) void gate.during(new Promise<void>((resolve) => (release = resolve)));
          else if (!m.held && release) {
            release();
            release = null;
          }
          return;
        }
        const method = Object.hasOwn(methods, m.method) ? methods[m.method] : undefined;
        const run = method
          ? Promise.resolve().then(() => (method as (...a: unknown[]) => Promise<unknown>)(...m.args))
          : Promise.reject(new Error(`${name} has no method ${m.method}`));
        run.then(
          (value) => send({ kind: 'reply', id: m.id, ok: true, value }),
          (err: unknown) => send({ kind: 'reply', id: m.id, ok: false, error: errorValue(err) }),
        );
      });
      // The client starts its calls' time limits from here: loading this thread's code is not a call's time.
      send({ kind: 'ready' });
    },
  };
}
