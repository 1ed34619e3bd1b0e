/**
 * The ONLY user of ipcMain. Electron types are kept structural (IpcMainLike) so this glue is
 * unit-tested with a fake ipcMain where no Electron binary exists.
 */
import { CHANNELS, isEventName, type Handlers } from '../shared/contract';
import type { Result } from '../shared/errors';
import { dispatch } from './dispatch';
import type { EventBus } from '../repo/event-bus';

export interface SenderFrameLike {
  url: string;
}
export interface InvokeEventLike {
  senderFrame: SenderFrameLike | null;
  sender: unknown;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, args: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}
export interface WebContentsLike {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

export interface RegisterOptions {
  /** True only for frames of Canopy's own renderer (checked on every call). */
  isTrustedSender(event: InvokeEventLike): boolean;
}

/** Registers a handler per channel; returns a function that removes them all. */
export function registerIpc(ipcMain: IpcMainLike, handlers: Handlers, options: RegisterOptions): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, args): Promise<Result<unknown>> => {
      if (!options.isTrustedSender(event)) {
        return { ok: false, error: { code: 'forbidden', message: 'request from an untrusted frame' } };
      }
      return dispatch(handlers, channel, args);
    });
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** Forwards bus events to one window's renderer. */
export function forwardEvents(bus: EventBus, target: WebContentsLike): () => void {
  return bus.subscribe((event, payload) => {
    if (!target.isDestroyed() && isEventName(event)) target.send(event, payload);
  });
}

/** A sender is trusted when its frame was loaded from the app's own renderer location. */
export function trustedByUrl(allowedPrefix: string): (event: InvokeEventLike) => boolean {
  return (event) => {
    const url = event.senderFrame?.url;
    return typeof url === 'string' && url.startsWith(allowedPrefix);
  };
}
