/**
 * The one place where a request becomes a handler call: channel check, argument validation,
 * and errors turned into values. Both transports (Electron IPC and HTTP) go through it.
 */
import { isChannel, type Channel, type Handlers } from '../shared/contract';
import { CanopyError, type ErrorValue, type Result } from '../shared/errors';
import { validators } from '../shared/validate';

export async function dispatch(handlers: Handlers, channel: unknown, rawArgs: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) {
    return {
      ok: false,
      error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}` },
    };
  }
  return answer(channel, () => {
    const args = validators[channel](rawArgs);
    return (handlers[channel] as (a: unknown) => Promise<unknown>)(args);
  });
}

/** What `call` gives for `channel`, its errors turned into values as for every channel. */
export async function answer(channel: Channel, call: () => Promise<unknown>): Promise<Result<unknown>> {
  try {
    return { ok: true, data: await call() };
  } catch (err) {
    return { ok: false, error: toErrorValue(err, channel) };
  }
}

function toErrorValue(err: unknown, channel: Channel) {
  if (err instanceof CanopyError) return { code: err.code, message: err.message };
  return internalError(channel, err).error;
}

/** A bug, not a user error, as an answer: the message kept, the transport never crashed. */
export function internalError(where: string, err: unknown): { ok: false; error: ErrorValue } {
  let message: string;
  try {
    message = err instanceof Error ? err.message : String(err);
  } catch {
    message = 'unprintable error';
  }
  return { ok: false, error: { code: 'internal', message: `${where}: ${message}` } };
}
