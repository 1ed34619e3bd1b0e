/**
 * The pure halves of a live change: main's diff (repo/live-delta.ts, repo/live-feed.ts) and the
 * renderer's apply (shared/live-dto.ts). Applying the diff of prev → next to prev gives next.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../electron/core';
import { contextDelta, labelsDelta, listDelta } from '../../electron/repo/live-delta';
import { LiveFeed } from '../../electron/repo/live-feed';
import type { ContextViewDto, EntryStateInfo } from '../../electron/shared/context-dto';
import { packEntryNodes } from '../../electron/shared/entry-nodes';
import { packEntryStates, unpackEntryStates } from '../../electron/shared/entry-states';
import { applyContextDelta, applyList, spliceEntryStates } from '../../electron/shared/live-dto';

const state = (id: string, s: EntryStateInfo['state'], extra: Partial<EntryStateInfo> = {}): EntryStateInfo => ({
  id,
  line: Number(id.slice(1)) + 2,
  state: s,
  reason: s === 'included' ? 'on the path' : s,
  ...extra,
});

function view(states: EntryStateInfo[], extra: Partial<ContextViewDto> = {}): ContextViewDto {
  return {
    sessionId: 's',
    profile: 'ca',
    detectedProfile: 'ca',
    leafId: states.at(-1)?.id ?? null,
    contextEntryIds: states.filter((x) => x.state === 'included').map((x) => x.id),
    entries: packEntryStates(states),
    messages: [],
    compactions: [],
    issues: [],
    ...extra,
  } as unknown as ContextViewDto;
}

describe('list and label deltas', () => {
  it('keep the common start, add the rest; apply gives the list back; a held list too short is a gap', () => {
    for (const [a, b] of [
      [
        ['a', 'b'],
        ['a', 'b', 'c'],
      ],
      [
        ['a', 'b', 'c'],
        ['a', 'x'],
      ],
      [[], ['a']],
      [['a'], []],
    ]) {
      const d = listDelta(a!, b!);
      expect(applyList(a!, d)).toEqual(b);
    }
    expect(listDelta(['a', 'b', 'c'], ['a', 'x'])).toEqual({ keep: 1, add: ['x'] });
    expect(listDelta(null, ['a'])).toEqual({ keep: 0, add: ['a'] });
    expect(applyList(['a'], { keep: 2, add: [] })).toBeNull();
  });

  it('labels: set, changed and removed ones only', () => {
    expect(labelsDelta({ a: 'x', b: 'y' }, { a: 'x', b: 'z', c: 'w' })).toEqual({ b: 'z', c: 'w' });
    expect(labelsDelta({ a: 'x' }, {})).toEqual({ a: null });
    expect(labelsDelta(null, { a: 'x' })).toEqual({ a: 'x' });
  });
});

describe('context deltas', () => {
  it('entries appended at the end: only they are sent, and the held view becomes the new one', () => {
    const prev = view([state('e0', 'included'), state('e1', 'included')]);
    const next = view([state('e0', 'included'), state('e1', 'included'), state('e2', 'included')]);
    const d = contextDelta(prev, next);
    expect(d.entries.keep).toBe(2);
    expect(d.entries.states.ids).toEqual(['e2']);
    const applied = applyContextDelta(prev, d, 1)!;
    expect(unpackEntryStates(applied.entries)).toEqual(unpackEntryStates(next.entries));
    expect(applied.contextEntryIds).toEqual(['e0', 'e1', 'e2']);
    expect(applied.liveSeq).toBe(1);
  });

  it('a compaction that summarises old entries sends from the first one it changed; reasons and refs merge', () => {
    const prev = view([state('e0', 'included'), state('e1', 'included', { targetId: 'e0' }), state('e2', 'included')]);
    const next = view([
      state('e0', 'included'),
      state('e1', 'summarised', { by: 'e3', targetId: 'e0' }),
      state('e2', 'summarised', { by: 'e3' }),
      state('e3', 'included', { targetId: 'e1' }),
    ]);
    const d = contextDelta(prev, next);
    expect(d.entries.keep).toBe(1);
    const applied = applyContextDelta(prev, d, 2)!;
    expect(unpackEntryStates(applied.entries)).toEqual(unpackEntryStates(next.entries));
  });

  it('splicing states onto a held list with targets before the cut keeps them', () => {
    const held = packEntryStates([state('e0', 'included', { targetId: 'x' }), state('e1', 'edited', { by: 'e0' })]);
    const tail = packEntryStates([state('e2', 'excluded', { by: 'e1', targetId: 'e0' })]);
    expect(unpackEntryStates(spliceEntryStates(held, 2, tail)!)).toEqual([
      ...unpackEntryStates(held),
      ...unpackEntryStates(tail),
    ]);
    expect(spliceEntryStates(held, 3, tail)).toBeNull();
  });
});

describe('LiveFeed', () => {
  const entry = (id: string, line: number) => ({ id, line, parentId: null, type: 'message' }) as unknown as Entry;
  const facts = (ids: string[]) => () => ({
    profile: 'ca' as const,
    leafId: ids.at(-1) ?? null,
    pathIds: ids,
    contextEntryIds: ids,
    labels: {},
    sessionName: null,
    issues: [],
  });
  const nodes = (entries: Entry[]) => (from: number) =>
    packEntryNodes(
      entries.slice(from).map((e) => ({ ...e, timestamp: '2026-01-01T00:00:00.000Z', preview: e.id }) as never),
    );

  it('numbers each change; nothing new is no change; a provisional last line written whole is sent again; a new index is a reset', () => {
    const feed = new LiveFeed();
    feed.start(1, 2);
    const two = [entry('a', 2), entry('b', 3)];
    expect(feed.change(1, two, facts(['a', 'b']), nodes(two))).toBeNull();
    const three = [...two, entry('c', 4)];
    const c1 = feed.change(1, three, facts(['a', 'b', 'c']), nodes(three));
    expect(c1).toMatchObject({ seq: 1, graph: { from: 2, entries: { ids: ['c'] } } });
    // The last line was provisional: taken back and written whole (another id at its line).
    const replaced = [...two, entry('c2', 4)];
    const c2 = feed.change(1, replaced, facts(['a', 'b', 'c2']), nodes(replaced));
    expect(c2).toMatchObject({ seq: 2, graph: { from: 2, entries: { ids: ['c2'] } } });
    expect(feed.change(2, [entry('z', 2)], facts(['z']), nodes([]))).toEqual({
      seq: 3,
      reset: 'the file was truncated or rewritten',
    });
  });
});
