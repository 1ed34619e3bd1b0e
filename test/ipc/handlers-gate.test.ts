/**
 * What the user waits for comes first: while a session opens, or its entries, previews, payloads or
 * context are read, the background passes (search indexing, the radar, the store report) are held
 * at their pause points; a listing or a search does not hold them.
 */
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/ipc/handlers';
import { OpenGate } from '../../electron/threads/open-gate';
import { SessionCatalog } from '../../electron/repo/catalog';
import { sampleRoot } from '../repo/helpers';

describe('the open gate in the handlers', () => {
  it('is held while a session-reading channel runs, and released after', async () => {
    const { root } = await sampleRoot();
    const gate = new OpenGate();
    const h = createHandlers({ catalog: new SessionCatalog({ roots: [root] }), gate, version: 't', transport: 'http' });
    const listing = h['sessions.list']({});
    expect(gate.pause()).toBeNull();
    const sessionId = (await listing).sessions.find((s) => s.sessionId.endsWith('000000000001'))!.sessionId;
    const reads: [string, () => Promise<unknown>][] = [
      ['session.open', () => h['session.open']({ sessionId })],
      ['entry.get', () => h['entry.get']({ sessionId, entryId: 'a2' })],
      ['session.previews', () => h['session.previews']({ sessionId, entryIds: ['a2'] })],
      ['session.context', () => h['session.context']({ sessionId })],
    ];
    for (const [channel, call] of reads) {
      const running = call();
      expect(gate.pause(), `${channel} holds the gate`).not.toBeNull();
      await running;
      expect(gate.pause(), `${channel} releases it`).toBeNull();
    }
  });
});
