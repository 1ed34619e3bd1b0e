/**
 * Builds `window.api` from the contract: one function per channel, one `on` for events. Electron
 * objects are passed in (structural types) so this is unit-tested with fakes.
 */
import {
  channelMethods,
  isEventName,
  type Api,
  type Args,
  type Channel,
  type ResultOf,
} from '../electron/shared/contract';
import type { Result } from '../electron/shared/errors';

export interface IpcRendererLike {
  invoke(channel: string, args: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

export function buildApi(ipc: IpcRendererLike): Api {
  // What comes back over IPC is main's Result for that channel (dispatch makes it so); a call that
  // rejects (an answer the structured clone refused) is an internal error value like any other.
  const invoke =
    <C extends Channel>(channel: C) =>
    (args: Args<C>) =>
      (ipc.invoke(channel, args ?? {}) as Promise<Result<ResultOf<C>>>).catch((err: unknown): Result<ResultOf<C>> => ({
        ok: false,
        error: { code: 'internal', message: `${channel}: ${err instanceof Error ? err.message : String(err)}` },
      }));
  const on: Api['on'] = (event, listener) => {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    // Never hand the IpcRendererEvent (and with it `sender`) to the page.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload as Parameters<typeof listener>[0]);
    ipc.on(event, wrapped);
    return () => ipc.removeListener(event, wrapped);
  };
  return Object.freeze({ ...channelMethods(invoke), on } satisfies Api);
}
