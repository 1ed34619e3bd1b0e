import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../electron/shared/contract';
import { buildApi } from '../../preload/build-api';

function fakeIpcRenderer() {
  const invoked: Array<[string, unknown]> = [];
  const listeners = new Map<string, Set<(e: unknown, p: unknown) => void>>();
  return {
    invoked,
    listeners,
    invoke: async (channel: string, args: unknown) => {
      invoked.push([channel, args]);
      return { ok: true, data: channel };
    },
    on: (channel: string, fn: (e: unknown, p: unknown) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(fn);
    },
    removeListener: (channel: string, fn: (e: unknown, p: unknown) => void) => listeners.get(channel)?.delete(fn),
    fire: (channel: string, payload: unknown) =>
      listeners.get(channel)?.forEach((fn) => fn({ sender: 'secret' }, payload)),
  };
}

describe('preload api', () => {
  it('exposes one function per channel plus `on`, and nothing else', () => {
    const api = buildApi(fakeIpcRenderer());
    expect(Object.keys(api).sort()).toEqual([...CHANNELS, 'on'].sort());
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('invokes the channel of the same name', async () => {
    const ipc = fakeIpcRenderer();
    const api = buildApi(ipc);
    expect(await api['session.open']({ sessionId: 's' })).toEqual({ ok: true, data: 'session.open' });
    expect(ipc.invoked).toEqual([['session.open', { sessionId: 's' }]]);
  });

  it('turns a rejected call (an answer Electron could not clone) into an internal error value', async () => {
    const ipc = fakeIpcRenderer();
    ipc.invoke = async () => {
      throw new Error('An object could not be cloned.');
    };
    expect(await buildApi(ipc)['session.lineage']({ sessionId: 's' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'session.lineage: An object could not be cloned.' },
    });
  });

  it('passes event payloads without the IPC event object, and unsubscribes', () => {
    const ipc = fakeIpcRenderer();
    const api = buildApi(ipc);
    const got: unknown[] = [];
    const off = api.on('sessions.changed', (p) => got.push(p));
    ipc.fire('sessions.changed', { reason: 'added' });
    off();
    ipc.fire('sessions.changed', { reason: 'changed' });
    expect(got).toEqual([{ reason: 'added' }]);
  });

  it('refuses to subscribe to channels that are not contract events', () => {
    const api = buildApi(fakeIpcRenderer());
    expect(() => (api.on as (e: string, f: () => void) => void)('ipc-internal', () => {})).toThrow(/unknown event/);
  });
});
