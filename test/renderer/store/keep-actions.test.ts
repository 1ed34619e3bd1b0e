import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';

const REC = { name: 'Mine', updatedAt: '2026-01-01T00:00:00.000Z' };

describe('the keep actions', () => {
  it('load the records, follow keep.changed into the store (a clear drops one), and stop', async () => {
    const fake = fakeApi({ 'keep.get': async () => ({ ok: true, data: { s1: REC } }) });
    const store = createCanopyStore();
    const stop = createActions(fake.api, store).followKeep();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().keep).toEqual({ s1: REC });
    fake.emit('keep.changed', { sessionId: 's2', record: { pinned: true, updatedAt: REC.updatedAt } });
    fake.emit('keep.changed', { sessionId: 's1', record: null });
    expect(store.getState().keep).toEqual({ s2: { pinned: true, updatedAt: REC.updatedAt } });
    stop();
    expect(fake.listenerCount()).toBe(0);
  });

  it('a change answers what main kept, or its error', async () => {
    const fake = fakeApi({
      'keep.set': async ({ sessionId }) =>
        sessionId === 'bad'
          ? { ok: false, error: { code: 'not_found', message: 'no session bad' } }
          : { ok: true, data: REC },
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    expect(await actions.keepSession('s1', { name: 'Mine' })).toEqual({ data: REC });
    expect(store.getState().keep.s1).toEqual(REC);
    expect(await actions.keepSession('bad', { name: 'x' })).toEqual({
      error: { code: 'not_found', message: 'no session bad' },
    });
  });
});
