/**
 * The ONLY user of ipcMain. Electron types are kept structural (IpcMainLike) so this glue is
 * unit-tested with a fake ipcMain where no Electron binary exists.
 */
import { isAppUrl } from '../shared/app-origin';
import { CHANNELS, isEventName, type Handlers } from '../shared/contract';
import type { Result } from '../shared/errors';
import { dispatch } from './dispatch';
import { EncodedJson } from '../repo/encoded-json';
import type { EventBus } from '../repo/event-bus';

export interface SenderFrameLike {
  url: string;
  parent: SenderFrameLike | null;
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
      const answer = await dispatch(handlers, channel, args);
      // A worker's JSON bytes become the value IPC clones (parsed here: Electron's IPC sends values, not bytes).
      if (answer.ok && answer.data instanceof EncodedJson) return { ok: true, data: answer.data.value() };
      // Not serialized here to check it can be sent (that is test/ipc/ipc-clone.test.ts's work); a value
      // the structured clone refuses rejects the call, which the preload turns into an error value.
      return answer;
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

/**
 * A sender is trusted when it is the top frame (no iframe) of one of Canopy's own windows and that
 * frame shows the app (`app://canopy/…`).
 */
export function trustedSender(isAppContents: (sender: unknown) => boolean): (event: InvokeEventLike) => boolean {
  return (event) => {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isAppContents(event.sender) && isAppUrl(frame.url);
  };
}
