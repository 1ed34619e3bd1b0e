import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';

describe('the compare actions', () => {
  it('ask for the two sides as given and hand back the error to show', async () => {
    const fake = fakeApi({
      'session.compare': async () => ({ ok: false, error: { code: 'not_found', message: 'no such leaf' } }),
    });
    const actions = createActions(fake.api, createCanopyStore());
    const r = await actions.compare({ sessionId: 'a' }, { sessionId: 'b', leafId: 'e9' });
    expect(r).toEqual({ error: { code: 'not_found', message: 'no such leaf' } });
    expect(fake.calls).toEqual([
      { channel: 'session.compare', args: { a: { sessionId: 'a' }, b: { sessionId: 'b', leafId: 'e9' } } },
    ]);
  });

  it('read the family, null when it cannot be read', async () => {
    const lineage = { sessionId: 's1', members: [] } as never;
    const fake = fakeApi({
      'session.lineage': async ({ sessionId }) =>
        sessionId === 's1' ? { ok: true, data: lineage } : { ok: false, error: { code: 'not_found', message: 'gone' } },
    });
    const actions = createActions(fake.api, createCanopyStore());
    expect(await actions.lineage('s1')).toBe(lineage);
    expect(await actions.lineage('s2')).toBeNull();
  });
});
