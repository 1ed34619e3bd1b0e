import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildContextView,
  type ParsedSession,
  parseSessionText,
  type Profile,
  readSessionDetailed,
} from '../../../electron/core';
import type { ContextViewDto } from '../../../electron/shared/context-dto';
import { packEntryStates, unpackEntryStates } from '../../../electron/shared/entry-states';
import type { EntryNodeDto, SessionGraphDto } from '../../../electron/shared/dto';
import { messagesByEntry, shareIds, statesById } from '../../../renderer/src/model/context-order';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';

type Rec = Record<string, unknown>;

/** The DTO main sends for a reading (context-service.ts adds these three fields). */
function viewOf(
  s: ParsedSession,
  profile: Profile,
  leafId?: string | null,
): { view: ContextViewDto; expected: string[] } {
  const reading = readSessionDetailed(s, { profile, ...(leafId !== undefined ? { leafId } : {}) });
  const view = buildContextView(s, reading);
  const dto = JSON.parse(
    JSON.stringify({
      sessionId: 's',
      detectedProfile: profile,
      issues: [],
      ...view,
      entries: packEntryStates(view.entries),
    }),
  ) as ContextViewDto;
  return { view: dto, expected: reading.contextEntryIds };
}

const nodesOf = (s: ParsedSession): EntryNodeDto[] =>
  s.entries.map((e) => ({
    id: e.id,
    parentId: e.parentId,
    type: e.type,
    line: e.line,
    timestamp: e.timestamp,
    preview: '',
  }));

let t = 0;
const stamp = () => new Date(Date.UTC(2026, 0, 1) + ++t * 1000).toISOString();

/** One random entry; parents are earlier ids (or dangling), some ids repeat. */
const entryArb = (i: number) =>
  fc.record({
    kind: fc.constantFrom(
      'user',
      'assistant',
      'bang',
      'system',
      'compaction',
      'model',
      'label',
      'edit',
      'custom',
      'summary',
      'leaf',
      'thinking',
    ),
    // Mostly chains (so compactions keep ranges on the path), some branches, roots and dangling parents.
    parent: fc.oneof(
      { arbitrary: fc.constant(i - 1), weight: 8 },
      { arbitrary: fc.nat(Math.max(i - 1, 0)), weight: 3 },
      { arbitrary: fc.constant(-1), weight: 1 },
      { arbitrary: fc.constant(-2), weight: 1 },
    ),
    other: fc.nat(Math.max(i - 1, 0)),
    dup: fc.double({ min: 0, max: 1, noNaN: true }),
    tail: fc.boolean(),
    keep: fc.boolean(),
  });

function build(
  specs: Array<{ kind: string; parent: number; other: number; dup: number; tail: boolean; keep: boolean }>,
): ParsedSession {
  const ids: string[] = [];
  const lines: Rec[] = [{ type: 'session', version: 3, id: 'sess', timestamp: stamp(), cwd: '/p' }];
  specs.forEach((spec, i) => {
    const id = spec.dup < 0.05 && i > 0 ? ids[spec.other]! : `e${i}`;
    ids.push(id);
    const parentId = spec.parent === -1 || i === 0 ? null : spec.parent === -2 ? 'missing' : ids[spec.parent]!;
    const other = ids[spec.other] ?? null;
    const base: Rec = { id, parentId, timestamp: stamp() };
    switch (spec.kind) {
      case 'user':
        lines.push({ ...base, type: 'message', message: { role: 'user', content: `ask ${i}`, timestamp: 1 } });
        break;
      case 'assistant':
        lines.push({
          ...base,
          type: 'message',
          message: {
            role: 'assistant',
            content: [{ type: 'text', text: `reply ${i}` }],
            provider: 'p',
            model: 'm',
            stopReason: 'stop',
            timestamp: 2,
          },
        });
        break;
      case 'bang':
        lines.push({
          ...base,
          type: 'message',
          message: {
            role: 'bashExecution',
            command: 'ls',
            output: 'x',
            exitCode: 0,
            excludeFromContext: spec.keep,
            timestamp: 3,
          },
        });
        break;
      case 'system':
        lines.push({ ...base, type: 'message', message: { role: 'system', content: `be brief ${i}`, timestamp: 4 } });
        break;
      case 'compaction':
        lines.push({
          ...base,
          type: 'compaction',
          summary: `summary ${i}`,
          tokensBefore: 100,
          ...(spec.keep && other ? { firstKeptEntryId: other } : {}),
          ...(spec.tail ? { retainedTail: [] } : {}),
        });
        break;
      case 'model':
        lines.push({ ...base, type: 'model_change', provider: 'p', modelId: `m${i}` });
        break;
      case 'thinking':
        lines.push({ ...base, type: 'thinking_level_change', thinkingLevel: 'high' });
        break;
      case 'label':
        lines.push({ ...base, type: 'label', targetId: other ?? id, label: `l${i}` });
        break;
      case 'edit':
        lines.push({
          ...base,
          type: 'context_edit',
          targetId: other ?? id,
          replacement: spec.keep ? null : { content: 'edited' },
        });
        break;
      case 'custom':
        lines.push({ ...base, type: 'custom_message', customType: 'x', content: `custom ${i}`, display: true });
        break;
      case 'summary':
        lines.push({
          ...base,
          type: 'branch_summary',
          fromId: other ?? 'root',
          summary: spec.keep ? `branch ${i}` : '',
        });
        break;
      case 'leaf':
        lines.push({ ...base, type: 'leaf', targetId: other });
        break;
    }
  });
  return parseSessionText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const sessionArb = fc
  .integer({ min: 1, max: 28 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => entryArb(i))));

describe('the context view order (ContextViewDto.contextEntryIds)', () => {
  const SELECTED = new Set(['included', 'edited', 'excluded', 'not-projected']);

  it('is readSession().contextEntryIds, and every such entry has a selected state, for random sessions', () => {
    fc.assert(
      fc.property(sessionArb, fc.nat(40), (specs, pick) => {
        const s = build(specs);
        const nodes = nodesOf(s);
        for (const profile of ['ca', 'h3'] as const) {
          const leaves: Array<string | undefined> = [undefined, nodes[pick % nodes.length]?.id];
          for (const leafId of leaves) {
            const { view, expected } = viewOf(s, profile, leafId);
            expect(view.contextEntryIds).toEqual(expected);
            const states = statesById(view);
            for (const id of view.contextEntryIds)
              expect(SELECTED.has(states.get(id)!.state), `${profile} ${id}`).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('packs every entry state losslessly (shared/entry-states.ts), and looks each id up at its later line', () => {
    fc.assert(
      fc.property(sessionArb, (specs) => {
        const s = build(specs);
        for (const profile of ['ca', 'h3'] as const) {
          const core = buildContextView(s, readSessionDetailed(s, { profile })).entries;
          const { view } = viewOf(s, profile);
          expect(unpackEntryStates(view.entries)).toEqual(core);
          const states = statesById(view);
          expect(statesById(view)).toBe(states);
          for (const [id, e] of new Map(core.map((x) => [x.id, x]))) {
            expect(states.get(id)).toEqual(e);
            expect(states.stateOf(id)).toBe(e.state);
          }
          expect(states.get('no-such-id')).toBeUndefined();
          // With the graph's index (used when it lists the same ids) and with the graph's id strings.
          const nodes = nodesOf(s);
          const shared = shareIds(viewOf(s, profile).view, { sessionId: 's', entries: nodes } as SessionGraphDto);
          expect(shared.entries.ids).toEqual(core.map((x) => x.id));
          const indexed = statesById(shared, buildTreeIndex(nodes, null));
          for (const [id, e] of new Map(core.map((x) => [x.id, x]))) {
            expect(indexed.get(id)).toEqual(e);
            expect(indexed.stateOf(id)).toBe(e.state);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('puts the compaction whose summary opens the context first', () => {
    const s = build([
      { kind: 'user', parent: -1, other: 0, dup: 1, tail: false, keep: false },
      { kind: 'assistant', parent: 0, other: 0, dup: 1, tail: false, keep: false },
      { kind: 'user', parent: 1, other: 0, dup: 1, tail: false, keep: false },
      { kind: 'compaction', parent: 2, other: 1, dup: 1, tail: false, keep: true },
      { kind: 'assistant', parent: 3, other: 0, dup: 1, tail: false, keep: false },
    ]);
    expect(viewOf(s, 'ca').view.contextEntryIds).toEqual(['e3', 'e1', 'e2', 'e4']);
  });

  it('indexes states (the later line of a repeated id wins) and groups messages by entry', () => {
    const s = build([
      { kind: 'user', parent: -1, other: 0, dup: 1, tail: false, keep: false },
      { kind: 'bang', parent: 0, other: 0, dup: 1, tail: false, keep: true },
      { kind: 'assistant', parent: 1, other: 0, dup: 1, tail: false, keep: false },
    ]);
    const { view } = viewOf(s, 'ca');
    expect(statesById(view).get('e1')?.state).toBe('excluded');
    const grouped = messagesByEntry(view);
    expect([...grouped.keys()]).toEqual(['e0', 'e2']);
    expect(grouped.get('e2')![0]!.sentAs).toBe('assistant');
  });
});
