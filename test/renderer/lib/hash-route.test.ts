// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { bindHashRoute } from '../../../renderer/src/lib/hash-route';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';
import { chain, graphOf } from '../helpers';
import { graphToWire } from '../../../electron/shared/entry-nodes';

const f = fakeApi({
  'session.open': async ({ sessionId }) => ({ ok: true, data: graphToWire({ ...graphOf(chain(4)), sessionId }) }),
  'entry.get': async ({ sessionId, entryId }) => ({
    ok: true,
    data: { sessionId, entryId, line: 2, raw: {}, label: null, children: [] },
  }),
});

let unbind: (() => void) | null = null;
afterEach(() => {
  unbind?.();
  unbind = null;
  window.history.replaceState(null, '', '/');
});

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('bindHashRoute', () => {
  it('opens the session and selects the entry named by the hash at start-up', async () => {
    window.history.replaceState(null, '', '/#/session/s-9?entry=e2');
    const store = createCanopyStore();
    unbind = bindHashRoute(store, createActions(f.api, store));
    await settle();
    expect(store.getState().openSessionId).toBe('s-9');
    expect(store.getState().selectedEntryId).toBe('e2');
    expect(window.location.hash).toBe('#/session/s-9?entry=e2');
  });

  it('writes the hash when the user opens a session or selects an entry', async () => {
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    unbind = bindHashRoute(store, actions);
    await actions.openSession('s-1');
    expect(window.location.hash).toBe('#/session/s-1');
    actions.selectEntry('e3');
    expect(window.location.hash).toBe('#/session/s-1?entry=e3');
    const before = window.history.length;
    actions.selectEntry('e1'); // entry changes replace the history step
    expect(window.history.length).toBe(before);
  });

  it('follows hash changes (typed URL, back button)', async () => {
    const store = createCanopyStore();
    unbind = bindHashRoute(store, createActions(f.api, store));
    window.location.hash = '#/session/s-2?entry=e1';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await settle();
    expect(store.getState().openSessionId).toBe('s-2');
    expect(store.getState().selectedEntryId).toBe('e1');
  });
});
