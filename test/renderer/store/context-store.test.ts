import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ForkRequestDto } from '../../../electron/shared/context-dto';
import type { Result } from '../../../electron/shared/errors';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { currentForkKey } from '../../../renderer/src/store/fork-actions';
import { fixture, lineage, okPreview } from '../context-fixtures';
import { fakeApi, listOf, row } from '../fake-api';
import { graphToWire } from '../../../electron/shared/entry-nodes';

const ok = <T>(data: T): Result<T> => ({ ok: true, data });

function setup(overrides: Parameters<typeof fakeApi>[0] = {}) {
  const { graph } = fixture();
  const f = fakeApi({
    'session.open': async ({ sessionId }) => ok(graphToWire({ ...graph, sessionId })),
    'session.context': async ({ sessionId, leafId }) =>
      ok({ ...fixture({ sessionId, ...(leafId ? { leafId } : {}) }).view }),
    'session.lineage': async ({ sessionId }) => ok(lineage({ sessionId })),
    'entry.get': async ({ sessionId, entryId }) =>
      ok({ sessionId, entryId, line: 2, raw: { type: 'message', id: entryId }, label: null, children: [] }),
    'sessions.list': async () => ok(listOf([row('s1', '/p'), row('s2', '/p', { parentSessionId: 's1' })])),
    ...overrides,
  });
  const store = createCanopyStore();
  const actions = createActions(f.api, store);
  const calls = (channel: string) => f.calls.filter((c) => c.channel === channel).map((c) => c.args);
  return { f, store, actions, s: () => store.getState(), calls };
}

describe('context actions', () => {
  it('asks for the context and the lineage only once the graph has landed (the graph is drawn first)', async () => {
    let land: () => void = () => {};
    const { graph } = fixture();
    const { actions, s, calls } = setup({
      'session.open': ({ sessionId }) =>
        new Promise((resolve) => (land = () => resolve(ok(graphToWire({ ...graph, sessionId }))))),
    });
    const opened = actions.openSession('s1');
    await vi.waitFor(() => expect(calls('session.open')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 10));
    expect(calls('session.context')).toEqual([]);
    expect(calls('session.lineage')).toEqual([]);
    expect(s().contextLoading).toBe(true);
    land();
    await opened;
    expect(calls('session.context')).toEqual([{ sessionId: 's1' }]);
    expect(s().contextView?.leafId).toBe('a3');
    expect(s().lineage?.sessionId).toBe('s1');
  });

  it('asks to centre the leaf (or the deep-linked entry) before the graph lands, so the canvas opens there', async () => {
    const { actions, store, s } = setup();
    const seen: Array<string | null> = [];
    const off = store.subscribe((state, prev) => {
      if (state.graph && !prev.graph) seen.push(state.focusRequest?.nodeId ?? null);
    });
    await actions.openSession('s1');
    await actions.openSession('s2', { entryId: 'u2' });
    off();
    expect(seen).toEqual(['a3', 'u2']);
    expect(s().selectedEntryId).toBe('u2');
  });

  it('a failed graph still settles the context', async () => {
    const { actions, s, calls } = setup({
      'session.open': async () => ({ ok: false, error: { code: 'io', message: 'gone' } }),
    });
    await actions.openSession('s1');
    expect(s().openError?.message).toBe('gone');
    expect(calls('session.context')).toEqual([{ sessionId: 's1' }]);
    expect(s().contextLoading).toBe(false);
  });

  it('an open superseded by another session asks nothing more once its graph lands', async () => {
    let landSlow: () => void = () => {};
    const { graph } = fixture();
    const { actions, s, calls } = setup({
      'session.open': ({ sessionId }) =>
        sessionId === 'slow'
          ? new Promise((resolve) => (landSlow = () => resolve(ok(graphToWire({ ...graph, sessionId })))))
          : Promise.resolve(ok(graphToWire({ ...graph, sessionId }))),
    });
    const slow = actions.openSession('slow');
    await vi.waitFor(() => expect(calls('session.open')).toHaveLength(1));
    await actions.openSession('s1');
    landSlow();
    await slow;
    expect(calls('session.context')).toEqual([{ sessionId: 's1' }]);
    expect(calls('session.lineage')).toEqual([{ sessionId: 's1' }]);
    expect(s().graph?.sessionId).toBe('s1');
  });

  it('opening a session loads its context and lineage', async () => {
    const { actions, s, calls } = setup();
    await actions.openSession('s1');
    expect(calls('session.context')).toEqual([{ sessionId: 's1' }]);
    expect(calls('session.lineage')).toEqual([{ sessionId: 's1' }]);
    expect(s().contextView?.leafId).toBe('a3');
    expect(s().lineage?.sessionId).toBe('s1');
    expect(s().contextLoading).toBe(false);
  });

  it('"what if this were the leaf?" asks for that leaf, and back again; the profile override travels along', async () => {
    const { actions, s, calls } = setup();
    await actions.openSession('s1');
    await actions.setWhatIfLeaf('x1');
    expect(s().whatIfLeaf).toEqual({ entryId: 'x1' });
    expect(calls('session.context').at(-1)).toEqual({ sessionId: 's1', leafId: 'x1' });
    expect(s().contextView?.leafId).toBe('x1');
    await actions.setProfile('h3');
    expect(calls('session.context').at(-1)).toEqual({ sessionId: 's1', profile: 'h3', leafId: 'x1' });
    await actions.setWhatIfLeaf(null);
    expect(calls('session.context').at(-1)).toEqual({ sessionId: 's1', profile: 'h3' });
    expect(s().whatIfLeaf).toBeNull();
    // The current leaf is not a what-if.
    await actions.setWhatIfLeaf('x1');
    await actions.setWhatIfLeaf(s().graph!.leafId);
    expect(s().whatIfLeaf).toBeNull();
    expect(calls('session.context').at(-1)).toEqual({ sessionId: 's1', profile: 'h3' });
  });

  it('keeps only the latest context when answers arrive out of order', async () => {
    const pending: Array<() => void> = [];
    const { actions, s } = setup({
      'session.context': ({ sessionId, leafId }) =>
        new Promise((resolve) =>
          pending.push(() => resolve(ok(fixture({ sessionId, ...(leafId ? { leafId } : {}) }).view))),
        ),
    });
    const opened = actions.openSession('s1');
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    const whatIf = actions.setWhatIfLeaf('x1');
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    pending[1]!();
    await whatIf;
    pending[0]!();
    await opened;
    expect(s().contextView?.leafId).toBe('x1');
  });

  it('a context error is kept apart from the graph', async () => {
    const { actions, s } = setup({
      'session.context': async () => ({ ok: false, error: { code: 'io', message: 'disk gone' } }),
    });
    await actions.openSession('s1');
    expect(s().graph?.sessionId).toBe('s1');
    expect(s().contextError?.message).toBe('disk gone');
    expect(s().contextView).toBeNull();
  });

  it('switching sessions drops the what-if leaf, the view, the lineage and the highlight', async () => {
    const { actions, s } = setup();
    await actions.openSession('s1');
    await actions.setWhatIfLeaf('x1');
    s().setHighlight(['u1', 'a1'], 'hidden:c1');
    await actions.openSession('s2');
    expect(s().whatIfLeaf).toBeNull();
    expect(s().highlight).toBeNull();
    expect(s().contextView?.sessionId).toBe('s2');
    expect(s().contextView?.leafId).toBe('a3');
  });

  describe('live', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('an append re-reads graph and context, keeping the what-if leaf and the selection; a new file re-reads the lineage', async () => {
      const { f, actions, s, calls } = setup();
      await actions.openSession('s1');
      actions.selectEntry('u2');
      await actions.setWhatIfLeaf('x1');
      const off = actions.subscribeEvents();
      f.emit('session.appended', { sessionId: 's1', sizeBytes: 5000 });
      await vi.runAllTimersAsync();
      expect(calls('session.open')).toHaveLength(2);
      expect(calls('session.context').at(-1)).toEqual({ sessionId: 's1', leafId: 'x1' });
      expect(s().selectedEntryId).toBe('u2');
      expect(s().whatIfLeaf).toEqual({ entryId: 'x1' });
      f.emit('sessions.changed', { reason: 'added' });
      await vi.runAllTimersAsync();
      expect(calls('session.lineage')).toHaveLength(2);
      off();
    });
  });
});

describe('fork actions', () => {
  const before: ForkRequestDto = { kind: 'fork', entryId: 'u2', position: 'before' };

  it('previews once per request and file version; a refusal is kept as the preview', async () => {
    const { actions, s, calls } = setup({
      'session.forkPreview': async ({ request }) =>
        request.kind === 'fork' && request.entryId === 'a1'
          ? ok({
              ok: false as const,
              error: { kind: 'invalid_fork_target' as const, message: 'Invalid entry ID for forking' },
            })
          : ok(okPreview()),
    });
    await actions.openSession('s1');
    await actions.previewFork(before);
    await actions.previewFork(before);
    expect(calls('session.forkPreview')).toEqual([{ sessionId: 's1', request: before }]);
    expect(s().forkPreview?.key).toBe(currentForkKey(s(), before));
    expect(s().forkPreview?.preview).toMatchObject({ ok: true, entryCount: 4 });

    const bad: ForkRequestDto = { kind: 'fork', entryId: 'a1', position: 'before' };
    await actions.previewFork(bad);
    expect(s().forkPreview?.preview).toEqual({
      ok: false,
      error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' },
    });

    // The file grew: the same request is a new preview.
    s().setGraph({ ...s().graph!, sizeBytes: 9999 });
    await actions.previewFork(bad);
    expect(calls('session.forkPreview')).toHaveLength(3);
  });

  it('runs one preview at a time: requests made meanwhile collapse to the latest', async () => {
    let release: () => void = () => undefined;
    const first = new Promise<void>((r) => (release = r));
    let n = 0;
    const { actions, s, calls } = setup({
      'session.forkPreview': async () => {
        if (n++ === 0) await first;
        return ok(okPreview());
      },
    });
    await actions.openSession('s1');
    const at = (entryId: string): ForkRequestDto => ({ kind: 'fork', entryId, position: 'at' });
    const running = actions.previewFork(at('u1'));
    void actions.previewFork(at('a1'));
    void actions.previewFork(at('u2'));
    const last = actions.previewFork(at('a2'));
    expect(s().forkPreview).toMatchObject({ key: currentForkKey(s(), at('a2')), loading: true });
    release();
    await running;
    await last;
    expect(calls('session.forkPreview').map((c) => (c as { request: { entryId: string } }).request.entryId)).toEqual([
      'u1',
      'a2',
    ]);
    expect(s().forkPreview).toMatchObject({
      key: currentForkKey(s(), at('a2')),
      loading: false,
      preview: { ok: true },
    });
  });

  it('writes the fork, adds its row to the list without listing again, opens the new session and keeps the command', async () => {
    const { f, actions, s, calls } = setup({
      'sessions.list': async () => ok(listOf([row('s1', '/p')])),
      'session.fork': async () =>
        ok({
          sessionId: 's2',
          path: '/sessions/new.jsonl',
          command: "pi --session '/sessions/new.jsonl'",
          entryCount: 4,
          leafId: 'a1',
          row: row('s2', '/p', { parentSessionId: 's1' }),
        }),
    });
    await actions.loadSessions();
    await actions.openSession('s1');
    const asked = f.calls.length;
    const result = await actions.fork(before);
    expect(result?.sessionId).toBe('s2');
    expect(calls('session.fork')).toEqual([{ sessionId: 's1', request: before }]);
    expect(calls('sessions.list')).toHaveLength(1);
    expect(s().sessionList?.sessions.map((r) => r.sessionId)).toEqual(['s1', 's2']);
    // Click to drawn: the fork, the new graph, then its context and lineage together (3 round trips).
    expect(f.calls.slice(asked).map((c) => c.channel)).toEqual([
      'session.fork',
      'session.open',
      'session.context',
      'session.lineage',
    ]);
    expect(s().openSessionId).toBe('s2');
    expect(s().forkOutcome).toMatchObject({
      sourceSessionId: 's1',
      request: before,
      result: { command: "pi --session '/sessions/new.jsonl'" },
    });
    expect(s().forking).toBe(false);
    // Back to the source keeps the outcome; an unrelated session drops it.
    await actions.openSession('s1');
    expect(s().forkOutcome).not.toBeNull();
    await actions.openSession('s3');
    expect(s().forkOutcome).toBeNull();
  });

  it('a refused write is shown and nothing is opened', async () => {
    const { actions, s, calls } = setup({
      'session.fork': async () => ({
        ok: false,
        error: { code: 'invalid_fork_target', message: 'Entry u9 not found' },
      }),
    });
    await actions.openSession('s1');
    expect(await actions.fork({ kind: 'fork', entryId: 'u9', position: 'at' })).toBeNull();
    expect(s().forkError?.message).toBe('Entry u9 not found');
    expect(s().openSessionId).toBe('s1');
    expect(calls('sessions.list')).toHaveLength(0);
    // Selecting another entry clears the error and the chosen mode.
    s().setForkMode('clone');
    actions.selectEntry('a1');
    expect(s().forkError).toBeNull();
    expect(s().forkMode).toBeNull();
  });
});
