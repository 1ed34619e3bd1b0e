import { describe, expect, it } from 'vitest';
import { EventBus } from '../../electron/repo/event-bus';
import { forwardEvents, registerIpc, trustedSender, type InvokeEventLike } from '../../electron/ipc/register-electron';
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

const appContents = {};
const appFrame = { senderFrame: { url: 'app://canopy/index.html', parent: null }, sender: appContents };
const evilFrame = { senderFrame: { url: 'https://evil.example/index.html', parent: null }, sender: appContents };
const trusted = trustedSender((sender) => sender === appContents);

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
    registerIpc(ipc, handlers, { isTrustedSender: trusted });
    const call = ipc.handlers.get('sessions.list')!;
    expect(await call(appFrame, {})).toMatchObject({ ok: true });
    expect(await call(evilFrame, {})).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'request from an untrusted frame' },
    });
    expect(await call({ senderFrame: null, sender: appContents }, {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(calls).toHaveLength(1);
  });

  it('validates arguments behind the sender check', async () => {
    const ipc = fakeIpcMain();
    registerIpc(ipc, recordingHandlers().handlers, { isTrustedSender: () => true });
    const r = await ipc.handlers.get('entry.get')!(appFrame, { sessionId: 1 });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });
});

describe('trustedSender', () => {
  it('trusts only the top frame of an app window showing app://canopy', () => {
    expect(trusted(appFrame)).toBe(true);
    expect(
      trusted({ senderFrame: { url: 'app://canopy/index.html#/session/a', parent: null }, sender: appContents }),
    ).toBe(true);
    // An iframe inside the app window, even one showing the app.
    expect(
      trusted({ senderFrame: { url: 'app://canopy/index.html', parent: appFrame.senderFrame }, sender: appContents }),
    ).toBe(false);
    // Another window (a webContents Canopy did not create).
    expect(trusted({ senderFrame: appFrame.senderFrame, sender: {} })).toBe(false);
    for (const url of [
      'file:///opt/canopy/out/renderer/index.html',
      'app://evil/index.html',
      'app://u:p@canopy/',
      'not a url',
    ]) {
      expect(trusted({ senderFrame: { url, parent: null }, sender: appContents })).toBe(false);
    }
  });
});

describe('answers', () => {
  it('go back as the handler gave them: nothing serializes them to check (test/ipc/ipc-clone.test.ts does)', async () => {
    const ipc = fakeIpcMain();
    const { handlers } = recordingHandlers();
    const answer = { projects: [], sessions: [], skipped: [] };
    handlers['sessions.list'] = async () => answer;
    registerIpc(ipc, handlers, { isTrustedSender: () => true });
    const got = (await ipc.handlers.get('sessions.list')!(appFrame, {})) as { ok: boolean; data: unknown };
    expect(got).toEqual({ ok: true, data: answer });
    expect(got.data).toBe(answer);
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
