import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { registerIpc, type InvokeEventLike } from '../../electron/ipc/register-electron';
import type { Channel } from '../../electron/shared/contract';
import { sampleRoot } from '../repo/helpers';

// Electron's IPC sends an answer through the structured clone (v8.serialize). Main no longer
// serializes each answer to check it can go (that cost ~20 ms on a 20,000-entry graph); this test
// checks that the real handlers' answers can, as Electron would send them.
const BRANCHED = '019c0000-0000-7000-8000-000000000001';
const H3 = '019c0000-0000-7000-8000-000000000002';
const frame = { senderFrame: { url: 'app://canopy/index.html', parent: null }, sender: {} } as InvokeEventLike;

/** What the renderer gets back: the answer after Electron's structured clone, or the error that refused it. */
function electronIpc() {
  const handlers = new Map<string, (event: InvokeEventLike, args: unknown) => Promise<unknown>>();
  return {
    handle: (channel: string, fn: (event: InvokeEventLike, args: unknown) => Promise<unknown>) =>
      void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
    call: async (channel: Channel, args: unknown) => deserialize(serialize(await handlers.get(channel)!(frame, args))),
  };
}

describe('IPC answers', () => {
  it("every read channel's answer over real sessions survives Electron's structured clone", async () => {
    const { root } = await sampleRoot();
    const app = createAppServices({ roots: [root], transport: 'electron', watch: false });
    const ipc = electronIpc();
    registerIpc(ipc, app.handlers, { isTrustedSender: () => true });
    try {
      const calls: Array<[Channel, unknown]> = [
        ['app.info', {}],
        ['sessions.list', {}],
        ['session.open', { sessionId: BRANCHED }],
        ['session.open', { sessionId: H3 }],
        ['session.flags', { sessionId: BRANCHED }],
        ['session.previews', { sessionId: BRANCHED, entryIds: ['u1', 'a1'] }],
        ['entry.get', { sessionId: BRANCHED, entryId: 'a1' }],
        ['session.context', { sessionId: BRANCHED }],
        ['session.context', { sessionId: H3 }],
        ['session.lineage', { sessionId: BRANCHED }],
        ['session.forkPreview', { sessionId: BRANCHED, request: { kind: 'fork', entryId: 'u1', position: 'before' } }],
        ['search.status', {}],
        ['secrets.status', {}],
        ['secrets.session', { sessionId: BRANCHED }],
        ['export.preview', { sessionId: BRANCHED, format: 'html', redact: true }],
        ['export.ledger', {}],
        ['redactions.get', {}],
      ];
      for (const [channel, args] of calls) {
        const got = (await ipc.call(channel, args)) as { ok: boolean; error?: unknown };
        expect({ channel, ok: got.ok, error: got.error }).toEqual({ channel, ok: true, error: undefined });
      }
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a value the structured clone refuses is found by this check', () => {
    expect(() => serialize({ ok: true, data: { callback: () => 1 } })).toThrow(/could not be cloned/);
  });
});
