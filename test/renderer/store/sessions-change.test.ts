import { describe, expect, it } from 'vitest';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi, listOf, row, summary } from '../fake-api';

describe('the session list follows sessions.changed', () => {
  it('patches rows from the change (added, changed, removed) without listing again', async () => {
    const f = fakeApi({
      'sessions.list': async () => ({
        ok: true,
        data: listOf([
          row('a', '/p', { summary: summary('A', 'x', 3) }),
          row('b', '/p', { summary: summary('B', 'y') }),
        ]),
      }),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    await actions.loadSessions();
    const off = actions.subscribeEvents();
    const grown = row('a', '/p', { sizeBytes: 4096, summary: summary('A', 'x', 5) });
    const fresh = row('c', '/q');
    const after = listOf([grown, fresh]);
    f.emit('sessions.changed', {
      reason: 'added',
      change: { added: [fresh], changed: [grown], removed: ['b'], projects: after.projects, skipped: [] },
    });
    const s = store.getState();
    expect(s.sessionList?.sessions.map((r) => [r.sessionId, r.sizeBytes])).toEqual([
      ['a', 4096],
      ['c', 2048],
    ]);
    expect(s.sessionList?.projects).toEqual(after.projects);
    expect(s.summaries.a?.entryCount).toBe(5);
    expect(s.summaries.b).toBeUndefined();
    expect(f.calls.filter((c) => c.channel === 'sessions.list')).toHaveLength(1);
    off();
  });
});
