// @vitest-environment happy-dom
/**
 * A `pending` graph (session.open answered from the index): it draws at once, the drawn nodes ask
 * for their previews in batches and show them as they come, the filter says it is not ready, and
 * the flags from session.flags replace the nodes (then the filter is what the full pass gives).
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntryNodeDto, SessionGraphDto } from '../../../electron/shared/dto';
import type { Result } from '../../../electron/shared/errors';
import { graphToWire, packEntryNodes, type EntryNodesDto } from '../../../electron/shared/entry-nodes';
import { GraphPanel } from '../../../renderer/src/features/graph/GraphPanel';
import { fixture } from '../context-fixtures';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi, listOf, row } from '../fake-api';

fakeElementBox(1000, 700);

const ok = <T,>(data: T): Result<T> => ({ ok: true, data });

/** What the index alone gives of a node. */
function firstFrame(g: SessionGraphDto): SessionGraphDto {
  const entries = g.entries.map((n): EntryNodeDto => {
    const out: EntryNodeDto = {
      id: n.id,
      parentId: n.parentId,
      type: n.type,
      line: n.line,
      timestamp: n.timestamp,
      preview: '',
    };
    if (n.role !== undefined) out.role = n.role;
    if (n.targetId !== undefined) out.targetId = n.targetId;
    return out;
  });
  return { ...g, entries, pending: true };
}

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('lazy fill of a pending graph', () => {
  it("asks for the drawn nodes' previews in batches, shows them, and takes the flags when they come", async () => {
    const { graph } = fixture();
    const byId = new Map(graph.entries.map((n) => [n.id, n]));
    let answerFlags: (r: Result<{ entries: EntryNodesDto }>) => void = () => {};
    const f = fakeApi({
      'sessions.list': async () => ok(listOf([row('s1', '/p')])),
      'session.open': async () => ok(graphToWire(firstFrame(graph))),
      'session.previews': async ({ entryIds }) => {
        const out: Record<string, EntryNodeDto> = {};
        for (const id of entryIds) out[id] = byId.get(id)!;
        return ok(out);
      },
      'session.flags': () => new Promise((resolve) => (answerFlags = resolve)),
    });
    m = await mount(<GraphPanel />, f.api);
    await act(async () => {
      await m!.actions.openSession('s1');
    });
    await flush(20);
    const s = m.store.getState;
    expect(s().graph?.pending).toBe(true);
    expect(m.container.querySelector('[data-testid="filter-not-ready"]')).not.toBeNull();
    // Every drawn node's preview was asked for, each once, in one batch or a few.
    await vi.waitFor(() => expect(f.calls.some((c) => c.channel === 'session.previews')).toBe(true));
    const asked = f.calls
      .filter((c) => c.channel === 'session.previews')
      .flatMap((c) => (c.args as { entryIds: string[] }).entryIds);
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.length).toBeGreaterThan(0);
    await flush(20);
    const shown = [...m.container.querySelectorAll('.node-preview')].map((e) => e.textContent);
    const want = asked.map((id) => byId.get(id)!.preview).filter((p) => p);
    for (const p of want) expect(shown).toContain(p);
    expect(m.container.querySelector('[data-testid="preview-loading"]')).toBeNull();

    // The flags pass and the context (they read many bodies) left main to the first previews: asked after they came.
    await vi.waitFor(() => expect(f.calls.some((c) => c.channel === 'session.flags')).toBe(true));
    const order = f.calls
      .map((c) => c.channel)
      .filter((c) => c === 'session.previews' || c === 'session.flags' || c === 'session.context');
    expect(order[0]).toBe('session.previews');
    expect(order).toContain('session.context');
    // The flags: the nodes become the full pass's and the filter is ready.
    await act(async () => answerFlags(ok({ entries: packEntryNodes(graph.entries) })));
    await flush(20);
    expect(s().graph?.pending).toBeUndefined();
    expect(s().graph?.entries).toEqual(graph.entries);
    expect(s().lazyPreviews).toEqual({});
    expect(m.container.querySelector('[data-testid="filter-not-ready"]')).toBeNull();
  });

  it('drops flags that come for a graph replaced since', async () => {
    const { graph } = fixture();
    const answers: Array<(r: Result<{ entries: EntryNodesDto }>) => void> = [];
    const f = fakeApi({
      'sessions.list': async () => ok(listOf([row('s1', '/p')])),
      'session.open': async () => ok(graphToWire(firstFrame(graph))),
      'session.previews': async () => ok({}),
      'session.flags': () => new Promise((resolve) => answers.push(resolve)),
    });
    m = await mount(<GraphPanel />, f.api);
    await act(async () => m!.actions.openSession('s1'));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    await act(async () => m!.actions.reloadGraph());
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    const stale = graph.entries.map((n) => ({ ...n, preview: 'stale' }));
    await act(async () => answers[0]!(ok({ entries: packEntryNodes(stale) })));
    expect(m.store.getState().graph?.pending).toBe(true);
    await act(async () => answers[1]!(ok({ entries: packEntryNodes(graph.entries) })));
    expect(m.store.getState().graph?.entries).toEqual(graph.entries);
  });
  it('asks again for flags that main cancelled while the graph is still shown (another tab opened a session), a bounded number of times', async () => {
    const { graph } = fixture();
    const cancelled: Result<{ entries: EntryNodesDto }> = {
      ok: false,
      error: { code: 'cancelled', message: 'another session opened' },
    };
    let calls = 0;
    const f = fakeApi({
      'sessions.list': async () => ok(listOf([row('s1', '/p')])),
      'session.open': async () => ok(graphToWire(firstFrame(graph))),
      'session.previews': async () => ok({}),
      'session.flags': async () => (++calls === 1 ? cancelled : ok({ entries: packEntryNodes(graph.entries) })),
    });
    m = await mount(<GraphPanel />, f.api);
    await act(async () => m!.actions.openSession('s1'));
    await flush(10);
    expect(calls).toBe(2);
    expect(m.store.getState().graph?.pending).toBeUndefined();
    expect(m.store.getState().graph?.entries).toEqual(graph.entries);

    // Always cancelled: it gives up (the graph stays pending) instead of asking forever.
    m.unmount();
    calls = 0;
    const g = fakeApi({
      'sessions.list': async () => ok(listOf([row('s1', '/p')])),
      'session.open': async () => ok(graphToWire(firstFrame(graph))),
      'session.previews': async () => ok({}),
      'session.flags': async () => (++calls, cancelled),
    });
    m = await mount(<GraphPanel />, g.api);
    await act(async () => m!.actions.openSession('s1'));
    await flush(20);
    expect(calls).toBe(4);
    expect(m.store.getState().graph?.pending).toBe(true);
  });
});
