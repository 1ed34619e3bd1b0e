import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';

describe('the share actions', () => {
  it('reveal one finding by its index, the value only', async () => {
    const fake = fakeApi({ 'secrets.reveal': async ({ index }) => ({ ok: true, data: { value: `v${index}` } }) });
    const actions = createActions(fake.api, createCanopyStore());
    expect(await actions.revealSecret('s1', 2)).toEqual({ data: 'v2' });
    expect(fake.calls).toEqual([{ channel: 'secrets.reveal', args: { sessionId: 's1', index: 2 } }]);
  });

  it('follow the radar into the store until stopped', async () => {
    const fake = fakeApi({
      'secrets.counts': async () => ({ ok: true, data: { s1: 2 } }),
      'secrets.status': async () => ({
        ok: true,
        data: { scanning: false, done: 1, total: 1, withFindings: 1, error: null },
      }),
    });
    const store = createCanopyStore();
    const stop = createActions(fake.api, store).followSecrets();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().secretCounts).toEqual({ s1: 2 });
    expect(store.getState().secretsStatus?.withFindings).toBe(1);
    stop();
    expect(fake.listenerCount()).toBe(0);
  });

  it('save the user redactions and hand back what main kept, or its error', async () => {
    let fail = false;
    const fake = fakeApi({
      'redactions.set': async ({ literals }) =>
        fail
          ? { ok: false, error: { code: 'invalid_argument', message: 'bad regex' } }
          : { ok: true, data: { literals, regexes: [] } },
    });
    const actions = createActions(fake.api, createCanopyStore());
    expect(await actions.saveRedactions({ literals: ['acme'], regexes: [] })).toEqual({
      data: { literals: ['acme'], regexes: [] },
    });
    fail = true;
    expect(await actions.saveRedactions({ literals: [], regexes: ['('] })).toEqual({
      error: { code: 'invalid_argument', message: 'bad regex' },
    });
  });
});
