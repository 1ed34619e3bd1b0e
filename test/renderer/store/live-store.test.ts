/**
 * The store applies a followed session's deltas to what it holds (live-actions.ts): no session.open
 * or session.context for an append; a missed number, a reset or an unknown base is fetched once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContextViewDto } from '../../../electron/shared/context-dto';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { graphToWire, packEntryNodes, type EntryNodesDto } from '../../../electron/shared/entry-nodes';
import { packEntryStates } from '../../../electron/shared/entry-states';
import type { GraphDeltaDto, SessionAppendedDto } from '../../../electron/shared/live-dto';
import { contextDelta, graphDelta, type GraphFacts } from '../../../electron/repo/live-delta';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fakeApi } from '../fake-api';
import { chain, graphOf } from '../helpers';

const ok = <T>(data: T) => ({ ok: true as const, data });

function facts(nodes: EntryNodeDto[], extra: Partial<GraphFacts> = {}): GraphFacts {
  const ids = nodes.map((n) => n.id);
  return {
    profile: 'ca',
    leafId: ids.at(-1) ?? null,
    pathIds: ids,
    contextEntryIds: ids,
    labels: {},
    sessionName: null,
    issues: [],
    ...extra,
  };
}

function contextOf(nodes: EntryNodeDto[], liveSeq: number): ContextViewDto {
  return {
    sessionId: 'a',
    profile: 'ca',
    detectedProfile: 'ca',
    leafId: nodes.at(-1)?.id ?? null,
    contextEntryIds: nodes.map((n) => n.id),
    entries: packEntryStates(nodes.map((n) => ({ id: n.id, line: n.line, state: 'included', reason: 'on the path' }))),
    messages: [],
    compactions: [],
    issues: [],
    liveSeq,
  } as unknown as ContextViewDto;
}

/** Change `seq` of the chain: from `before` nodes to `after`. */
function appended(before: EntryNodeDto[], after: EntryNodeDto[], seq: number): SessionAppendedDto {
  const nodes: EntryNodesDto = packEntryNodes(after.slice(before.length));
  const graph: GraphDeltaDto = graphDelta(facts(before), facts(after), before.length, nodes);
  return { sessionId: 'a', sizeBytes: 1000 + seq, seq, graph };
}

function setup(extra: Parameters<typeof fakeApi>[0] = {}) {
  const first = chain(3);
  let served = first;
  let servedSeq = 0;
  const f = fakeApi({
    'session.open': async () =>
      ok(
        graphToWire({
          ...graphOf(served, { sessionId: 'a', contextEntryIds: served.map((n) => n.id) }),
          liveSeq: servedSeq,
        }),
      ),
    'session.context': async () => ok(contextOf(served, servedSeq)),
    'session.lineage': async () => ok({ sessionId: 'a', parent: null, missingParentPath: null, children: [] }),
    'entry.get': async ({ entryId }) => ok({ sessionId: 'a', entryId, line: 1, raw: {}, label: null, children: [] }),
    ...extra,
  });
  const store = createCanopyStore();
  const actions = createActions(f.api, store);
  const count = (channel: string) => f.calls.filter((c) => c.channel === channel).length;
  const serve = (nodes: EntryNodeDto[], seq: number) => {
    served = nodes;
    servedSeq = seq;
  };
  return { f, store, actions, s: store.getState, count, serve };
}

describe('live deltas in the store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('an append is applied from its event: the node is held and followed, nothing is fetched again', async () => {
    const { f, actions, s, count } = setup();
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    const opens = count('session.open');
    const contexts = count('session.context');
    f.emit('session.appended', appended(chain(3), chain(4), 1));
    f.emit('session.contextChanged', {
      sessionId: 'a',
      seq: 1,
      base: 0,
      context: contextDelta(contextOf(chain(3), 0), contextOf(chain(4), 1)),
    });
    await vi.runAllTimersAsync();
    expect(s().graph?.entries.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(s().graph).toMatchObject({ leafId: 'e3', liveSeq: 1, sizeBytes: 1001 });
    expect(s().selectedEntryId).toBe('e3'); // followed
    expect(s().contextView?.contextEntryIds).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(s().contextView?.entries.ids).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(count('session.open')).toBe(opens);
    expect(count('session.context')).toBe(contexts);
    off();
  });

  it('a burst of 20 appends: each applied in order, none lost, no fetch', async () => {
    const { f, actions, s, count } = setup();
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    const leaves: Array<string | null> = [];
    for (let i = 0; i < 20; i++) {
      f.emit('session.appended', appended(chain(3 + i), chain(4 + i), i + 1));
      leaves.push(s().graph?.leafId ?? null);
    }
    await vi.runAllTimersAsync();
    expect(leaves).toEqual(Array.from({ length: 20 }, (_, i) => `e${3 + i}`));
    expect(s().graph?.entries.map((e) => e.id)).toEqual(chain(23).map((e) => e.id));
    expect(count('session.open')).toBe(1);
    off();
  });

  it('a missed number, a reset, or a delta the held graph cannot take: fetched again once', async () => {
    const { f, actions, s, count, serve } = setup();
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    serve(chain(5), 2);
    f.emit('session.appended', appended(chain(4), chain(5), 2)); // 1 was missed
    await vi.runAllTimersAsync();
    expect(count('session.open')).toBe(2);
    expect(s().graph).toMatchObject({ liveSeq: 2, leafId: 'e4' });
    serve(chain(2, 'z'), 3);
    f.emit('session.appended', { sessionId: 'a', sizeBytes: 10, seq: 3, reset: 'the file was truncated or rewritten' });
    await vi.runAllTimersAsync();
    expect(count('session.open')).toBe(3);
    expect(s().graph?.entries.map((e) => e.id)).toEqual(['z0', 'z1']);
    off();
  });

  it('deltas that arrive while a graph is fetched are applied to it when it lands (those it has are skipped)', async () => {
    const { f, actions, s, count, serve } = setup();
    const off = actions.subscribeEvents();
    serve(chain(4), 1);
    const opening = actions.openSession('a');
    f.emit('session.appended', appended(chain(3), chain(4), 1)); // already in the answer
    f.emit('session.appended', appended(chain(4), chain(5), 2));
    await opening;
    await vi.runAllTimersAsync();
    expect(s().graph?.entries.map((e) => e.id)).toEqual(chain(5).map((e) => e.id));
    expect(count('session.open')).toBe(1);
    off();
  });

  it('a context delta of another base than the one held is fetched again', async () => {
    const { f, actions, count } = setup();
    await actions.openSession('a');
    const off = actions.subscribeEvents();
    const contexts = count('session.context');
    f.emit('session.contextChanged', {
      sessionId: 'a',
      seq: 3,
      base: 2,
      context: contextDelta(contextOf(chain(3), 2), contextOf(chain(4), 3)),
    });
    await vi.runAllTimersAsync();
    expect(count('session.context')).toBe(contexts + 1);
    off();
  });

  it('the flags pass of a graph drawn from the index is not restarted by appends, and keeps the appended nodes', async () => {
    let release: () => void = () => {};
    const flagged = chain(3).map((n) => ({ ...n, preview: `flagged ${n.id}` }));
    const { f, actions, s, count } = setup({
      'session.open': async () =>
        ok(
          graphToWire({
            ...graphOf(
              chain(3).map((n) => ({ ...n, preview: '' })),
              { sessionId: 'a', contextEntryIds: ['e0', 'e1', 'e2'] },
            ),
            pending: true,
            liveSeq: 0,
          }),
        ),
      'session.flags': async () => {
        await new Promise<void>((r) => (release = r));
        return ok({ entries: packEntryNodes(flagged) });
      },
    });
    const off = actions.subscribeEvents();
    const opening = actions.openSession('a');
    await vi.advanceTimersByTimeAsync(2000);
    f.emit('session.appended', appended(chain(3), chain(4), 1));
    release();
    await vi.advanceTimersByTimeAsync(100);
    await opening;
    expect(s().graph?.pending).toBeUndefined();
    expect(s().graph?.entries.map((e) => e.preview)).toEqual(['flagged e0', 'flagged e1', 'flagged e2', 'step 3']);
    expect(count('session.flags')).toBe(1);
    off();
  });
});
