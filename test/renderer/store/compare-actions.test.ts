import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { CompareDto } from '../../../renderer/src/lib/shared';
import { fakeApi } from '../fake-api';

const answer = { ancestorId: 'r', rows: [] } as unknown as CompareDto;

describe('the compare actions', () => {
  it('ask for the two sides as given and keep the answer in the store, then clear it', async () => {
    const fake = fakeApi({ 'session.compare': async () => ({ ok: true, data: answer }) });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    await actions.compare({ sessionId: 'a' }, { sessionId: 'b', leafId: 'e9' });
    expect(store.getState().comparison).toEqual({ result: answer, error: null, busy: false });
    expect(fake.calls).toEqual([
      { channel: 'session.compare', args: { a: { sessionId: 'a' }, b: { sessionId: 'b', leafId: 'e9' } } },
    ]);
    actions.clearComparison();
    expect(store.getState().comparison).toEqual({ result: null, error: null, busy: false });
  });

  it('keep the error to show, and ask once while a comparison runs', async () => {
    let release: () => void = () => {};
    const fake = fakeApi({
      'session.compare': () =>
        new Promise((resolve) => {
          release = () => resolve({ ok: false, error: { code: 'not_found', message: 'no such leaf' } });
        }),
    });
    const store = createCanopyStore();
    const actions = createActions(fake.api, store);
    const first = actions.compare({ sessionId: 'a' }, { sessionId: 'b' });
    expect(store.getState().comparison.busy).toBe(true);
    await actions.compare({ sessionId: 'a' }, { sessionId: 'c' });
    release();
    await first;
    expect(fake.calls).toHaveLength(1);
    expect(store.getState().comparison).toEqual({ result: null, error: 'no such leaf', busy: false });
  });
});
