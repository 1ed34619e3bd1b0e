import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUMMARY_BATCH } from '../../../renderer/src/store/summaries';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import type { EntryDetailDto, SessionGraphDto } from '../../../electron/shared/dto';
import { fakeApi, listOf, row, summary } from '../fake-api';
import { chain, graphOf } from '../helpers';
import { graphToWire } from '../../../electron/shared/entry-nodes';

const detail = (sessionId: string, entryId: string): EntryDetailDto => ({
  sessionId,
  entryId,
  line: 2,
  raw: { type: 'message', id: entryId },
  label: null,
  children: [],
});

describe('store slices', () => {
  it('setSessionList keeps summaries of unchanged files and drops those of changed ones', () => {
    const store = createCanopyStore();
    const s = () => store.getState();
    s().setSessionList(listOf([row('a', '/p'), row('b', '/p')]));
    s().mergeSummaries({ a: summary('A', null), b: summary('B', null) });
    s().setSessionList(
      listOf([row('a', '/p'), row('b', '/p', { sizeBytes: 9999 }), row('c', '/q', { summary: summary('C', null) })]),
    );
    expect(Object.keys(s().summaries).sort()).toEqual(['a', 'c']);
  });

  it('selection resets the detail and only accepts a detail for the current selection', () => {
    const store = createCanopyStore();
    const s = () => store.getState();
    s().startOpening('s1');
    s().select('e1');
    expect(s().detailLoading).toBe(true);
    s().setDetail(detail('s1', 'other'));
    expect(s().detail).toBeNull();
    s().setDetail(detail('s1', 'e1'));
    expect(s().detail?.entryId).toBe('e1');
    s().select('e2');
    expect(s().detail).toBeNull();
  });

  it('opening another session clears graph, expansions and cursor; setGraph ignores stale sessions', () => {
    const store = createCanopyStore();
    const s = () => store.getState();
    s().startOpening('s1');
    s().setGraph({ ...graphOf(chain(3)), sessionId: 's1' });
    s().expandChain('e1');
    s().setCursor('e2');
    s().startOpening('s2');
    expect(s().graph).toBeNull();
    expect(s().expandedChains).toEqual({});
    expect(s().cursorId).toBeNull();
    s().setGraph({ ...graphOf(chain(3)), sessionId: 's1' });
    expect(s().graph).toBeNull();
  });

  it('toggles project collapse', () => {
    const store = createCanopyStore();
    store.getState().toggleProject('/p');
    expect(store.getState().collapsedProjects).toEqual({ '/p': true });
    store.getState().toggleProject('/p');
    expect(store.getState().collapsedProjects).toEqual({});
  });
});

describe('actions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('init loads app info and the listing, marks progress, and subscribes to events', async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const f = fakeApi({
      'app.info': async () => ({ ok: true, data: { version: '1', transport: 'http', roots: ['/r'], demo: false } }),
      'sessions.list': async () => {
        await gate;
        return { ok: true, data: listOf([row('a', '/p')]) };
      },
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const pending = actions.init();
    await vi.waitFor(() => expect(store.getState().listing).toBe(true));
    // Subscribed before the first listing: its progress events are heard.
    expect(f.listenerCount()).toBe(5);
    f.emit('sessions.progress', { done: 1, total: 2 });
    expect(store.getState().listProgress).toEqual({ done: 1, total: 2 });
    release();
    await pending;
    expect(store.getState().listing).toBe(false);
    expect(store.getState().sessionList?.sessions.map((r) => r.sessionId)).toEqual(['a']);
    expect(store.getState().appInfo?.roots).toEqual(['/r']);
    expect(f.listenerCount()).toBe(5);
  });

  it('a refused token becomes the app-wide error and stops start-up', async () => {
    const f = fakeApi({
      'app.info': async () => ({ ok: false, error: { code: 'forbidden', message: 'missing or wrong token' } }),
    });
    const store = createCanopyStore();
    await createActions(f.api, store).init();
    expect(store.getState().fatalError?.code).toBe('forbidden');
    expect(f.calls.map((c) => c.channel)).toEqual(['app.info']);
    expect(f.listenerCount()).toBe(0);
  });

  it('asks for summaries in batches, each id once', async () => {
    const f = fakeApi({
      'sessions.summaries': async ({ sessionIds }) => ({
        ok: true,
        data: Object.fromEntries(sessionIds.map((id) => [id, summary(null, `first ${id}`)])),
      }),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const ids = Array.from({ length: SUMMARY_BATCH + 20 }, (_, i) => `s${i}`);
    actions.requestSummaries(ids.slice(0, 50));
    actions.requestSummaries(ids); // overlaps the first request
    actions.requestSummaries(ids.slice(0, 10));
    await vi.runAllTimersAsync();
    const batches = f.calls
      .filter((c) => c.channel === 'sessions.summaries')
      .map((c) => (c.args as { sessionIds: string[] }).sessionIds);
    expect(batches.map((b) => b.length)).toEqual([SUMMARY_BATCH, 20]);
    expect(new Set(batches.flat()).size).toBe(SUMMARY_BATCH + 20);
    expect(store.getState().summaries.s7?.firstMessage).toBe('first s7');
    actions.requestSummaries(['s7']);
    await vi.runAllTimersAsync();
    expect(f.calls.filter((c) => c.channel === 'sessions.summaries')).toHaveLength(2);
  });

  it('opens a session, focuses the leaf, and with a deep-linked entry selects and loads it', async () => {
    const graph: SessionGraphDto = { ...graphOf(chain(5)), sessionId: 's1' };
    const f = fakeApi({
      'session.open': async () => ({ ok: true, data: graphToWire(graph) }),
      'entry.get': async ({ sessionId, entryId }) => ({ ok: true, data: detail(sessionId, entryId) }),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    await actions.openSession('s1');
    expect(store.getState().graph).toEqual(graph);
    expect(store.getState().focusRequest?.nodeId).toBe('e4');
    await actions.openSession('s1', { entryId: 'e2' });
    await vi.waitFor(() => expect(store.getState().detail?.entryId).toBe('e2'));
    expect(store.getState().selectedEntryId).toBe('e2');
    expect(store.getState().focusRequest?.nodeId).toBe('e2');
    // The same session is not fetched twice.
    expect(f.calls.filter((c) => c.channel === 'session.open')).toHaveLength(1);
  });

  it('keeps only the latest of two overlapping opens', async () => {
    const resolvers: Array<() => void> = [];
    const f = fakeApi({
      'session.open': ({ sessionId }) =>
        new Promise((resolve) =>
          resolvers.push(() => resolve({ ok: true, data: graphToWire({ ...graphOf(chain(2)), sessionId }) })),
        ),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const first = actions.openSession('s1');
    const second = actions.openSession('s2');
    resolvers[1]!();
    resolvers[0]!();
    await Promise.all([first, second]);
    expect(store.getState().openSessionId).toBe('s2');
    expect(store.getState().graph?.sessionId).toBe('s2');
  });

  it('selects a deep-linked entry even when a live reload supersedes the open', async () => {
    const resolvers: Array<() => void> = [];
    const f = fakeApi({
      'session.open': ({ sessionId }) =>
        new Promise((resolve) =>
          resolvers.push(() => resolve({ ok: true, data: graphToWire({ ...graphOf(chain(5)), sessionId }) })),
        ),
      'entry.get': async ({ sessionId, entryId }) => ({ ok: true, data: detail(sessionId, entryId) }),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const opening = actions.openSession('s1', { entryId: 'e2' });
    // pi appends while the graph is loading: the reload's answer is the one that counts.
    const reloading = actions.reloadGraph();
    resolvers[0]!();
    resolvers[1]!();
    await Promise.all([opening, reloading]);
    expect(store.getState().graph?.sessionId).toBe('s1');
    expect(store.getState().selectedEntryId).toBe('e2');
  });

  it('re-opens with the chosen profile, and shows open errors', async () => {
    const f = fakeApi({
      'session.open': async (args) =>
        args.sessionId === 'bad'
          ? { ok: false, error: { code: 'unsupported_format', message: 'format 4 is not supported yet' } }
          : {
              ok: true,
              data: graphToWire({ ...graphOf(chain(2)), sessionId: args.sessionId, profile: args.profile ?? 'ca' }),
            },
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    await actions.openSession('s1');
    await actions.setProfile('h3');
    expect(f.calls.filter((c) => c.channel === 'session.open').at(-1)).toEqual({
      channel: 'session.open',
      args: { sessionId: 's1', profile: 'h3' },
    });
    expect(store.getState().graph?.profile).toBe('h3');
    await actions.openSession('bad');
    expect(store.getState().openError?.code).toBe('unsupported_format');
    expect(store.getState().profileOverride).toBeNull();
  });

  it('refreshes the listing on sessions.changed and the open graph on session.appended (debounced)', async () => {
    let lists = 0;
    const f = fakeApi({
      'sessions.list': async () => {
        lists++;
        return { ok: true, data: listOf([row('a', '/p')]) };
      },
      'session.open': async ({ sessionId }) => ({ ok: true, data: graphToWire({ ...graphOf(chain(2)), sessionId }) }),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    f.emit('sessions.changed', { reason: 'added' });
    f.emit('sessions.changed', { reason: 'changed' });
    f.emit('session.appended', { sessionId: 'other', sizeBytes: 1 });
    f.emit('session.appended', { sessionId: 'a', sizeBytes: 10 });
    await vi.runAllTimersAsync();
    expect(lists).toBe(1);
    expect(f.calls.filter((c) => c.channel === 'session.open')).toHaveLength(2);
    off();
    expect(f.listenerCount()).toBe(0);
  });

  it('re-reads the open session at once on an append, then coalesces appends that arrive while it reads', async () => {
    const releases: (() => void)[] = [];
    const f = fakeApi({
      'session.open': async ({ sessionId }) => {
        // Every re-read (not the first open) waits until the test lets it finish.
        if (f.calls.filter((c) => c.channel === 'session.open').length > 1)
          await new Promise<void>((r) => releases.push(r));
        return { ok: true, data: graphToWire({ ...graphOf(chain(2)), sessionId }) };
      },
    });
    const opens = () => f.calls.filter((c) => c.channel === 'session.open').length;
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    f.emit('session.appended', { sessionId: 'a', sizeBytes: 10 });
    await vi.advanceTimersByTimeAsync(1);
    expect(opens()).toBe(2); // leading edge: no 250 ms debounce first
    for (let i = 0; i < 3; i++) f.emit('session.appended', { sessionId: 'a', sizeBytes: 20 + i });
    await vi.advanceTimersByTimeAsync(500);
    expect(opens()).toBe(2); // one re-read in flight, the rest wait for it
    releases.shift()!();
    await vi.advanceTimersByTimeAsync(50);
    expect(opens()).toBe(2); // a short gap between re-reads
    await vi.advanceTimersByTimeAsync(100);
    expect(opens()).toBe(3); // the three appends made one more re-read
    releases.shift()!();
    await vi.runAllTimersAsync();
    expect(opens()).toBe(3);
    off();
  });
});
