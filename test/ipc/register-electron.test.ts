import { describe, expect, it } from 'vitest';
import { EventBus } from '../../electron/repo/event-bus';
import { forwardEvents, registerIpc, trustedByUrl, type InvokeEventLike } from '../../electron/ipc/register-electron';
import { CHANNELS } from '../../electron/shared/contract';
import { recordingHandlers } from './fake-handlers';

function fakeIpcMain() {
  const handlers = new Map<string, (event: InvokeEventLike, args: unknown) => Promise<unknown>>();
  return {
    handlers,
    handle: (channel: string, fn: (event: InvokeEventLike, args: unknown) => Promise<unknown>) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  };
}

const appFrame = { senderFrame: { url: 'file:///opt/canopy/out/renderer/index.html' }, sender: {} };
const evilFrame = { senderFrame: { url: 'https://evil.example/index.html' }, sender: {} };

describe('registerIpc', () => {
  it('registers exactly the contract channels and removes them again', () => {
    const ipc = fakeIpcMain();
    const dispose = registerIpc(ipc, recordingHandlers().handlers, { isTrustedSender: () => true });
    expect([...ipc.handlers.keys()].sort()).toEqual([...CHANNELS].sort());
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('checks the sender frame on every call', async () => {
    const ipc = fakeIpcMain();
    const { handlers, calls } = recordingHandlers();
    registerIpc(ipc, handlers, { isTrustedSender: trustedByUrl('file:///opt/canopy/out/renderer/') });
    const call = ipc.handlers.get('sessions.list')!;
    expect(await call(appFrame, {})).toMatchObject({ ok: true });
    expect(await call(evilFrame, {})).toEqual({ ok: false, error: { code: 'forbidden', message: 'request from an untrusted frame' } });
    expect(await call({ senderFrame: null, sender: {} }, {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(calls).toHaveLength(1);
  });

  it('validates arguments behind the sender check', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, recordingHandlers().handlers, { isTrustedSender: () => true });
    const r = await ipc.handlers.get('entry.get')!(appFrame, { sessionId: 1 });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});

describe('trustedByUrl', () => {
  it('does not trust a sibling folder that shares the prefix text', () => {
    const trusted = trustedByUrl('file:///opt/canopy/out/renderer/');
    expect(trusted({ senderFrame: { url: 'file:///opt/canopy/out/renderer-evil/x.html' }, sender: {} })).toBe(false);
    expect(trusted({ senderFrame: { url: 'file:///opt/canopy/out/renderer/index.html#/session/a' }, sender: {} })).toBe(true);
  });
});

describe('forwardEvents', () => {
  it('sends bus events to a live window and stops after dispose or destruction', () => {
    const bus = new EventBus();
    const sent: unknown[] = [];
    let destroyed = false;
    const dispose = forwardEvents(bus, { send: (c, p) => sent.push([c, p]), isDestroyed: () => destroyed });
    bus.emit('sessions.changed', { reason: 'added' });
    destroyed = true;
    bus.emit('sessions.changed', { reason: 'changed' });
    destroyed = false;
    dispose();
    bus.emit('sessions.changed', { reason: 'removed' });
    expect(sent).toEqual([['sessions.changed', { reason: 'added' }]]);
  });
});
