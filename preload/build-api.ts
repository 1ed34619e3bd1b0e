/**
 * Builds `window.api` from the contract: one function per channel, one `on` for events. Electron
 * objects are passed in (structural types) so this is unit-tested with fakes.
 */
import { CHANNELS, isEventName, type Api, type EventName } from '../electron/shared/contract';

export interface IpcRendererLike {
  invoke(channel: string, args: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): void;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): void;
}

export function buildApi(ipc: IpcRendererLike): Api {
  const api: Record<string, unknown> = {};
  for (const channel of CHANNELS) {
    api[channel] = (args: unknown) => ipc.invoke(channel, args ?? {});
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    // Never hand the IpcRendererEvent (and with it `sender`) to the page.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipc.on(event, wrapped);
    return () => ipc.removeListener(event, wrapped);
  };
  return Object.freeze(api) as unknown as Api;
}
