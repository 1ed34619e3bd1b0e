/**
 * session.open sends graph nodes packed as columns (shared/entry-nodes.ts); the renderer must get
 * back exactly the nodes the catalog built, whatever the ids, parents, timestamps and fields.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntryNodeDto } from '../../electron/shared/dto';
import { graphFromWire, graphToWire, packEntryNodes, unpackEntryNodes } from '../../electron/shared/entry-nodes';

const ids = ['a', 'b', 'c', 'dup', '__proto__', 'x y'];
const timestamp = fc.oneof(
  fc.integer({ min: 0, max: 4102444800000 }).map((ms) => new Date(ms).toISOString()),
  fc.constantFrom(
    '',
    '2026-01-01T00:00:00Z',
    '2026-01-01 10:00',
    'not a time',
    '+010000-01-01T00:00:00.000Z',
    '2026-02-30T00:00:00.000Z',
  ),
);
const node = fc.record(
  {
    id: fc.constantFrom(...ids),
    parentId: fc.option(fc.constantFrom(...ids, 'gone', ''), { nil: null }),
    type: fc.constantFrom('message', 'compaction', 'label', 'leaf', 'custom'),
    timestamp,
    preview: fc.string({ maxLength: 20 }),
    role: fc.constantFrom('user', 'assistant', 'toolResult'),
    toolNames: fc.array(fc.constantFrom('read', 'bash', 'edit'), { maxLength: 3 }),
    hasText: fc.boolean(),
    isError: fc.boolean(),
    model: fc.constantFrom('openai/gpt-5', 'anthropic/claude'),
    stopReason: fc.constantFrom('stop', 'toolUse'),
    customType: fc.constantFrom('ext', 'note'),
    targetId: fc.option(fc.constantFrom(...ids), { nil: null }),
    checkpoint: fc.constantFrom('none', 'first-kept'),
    firstKeptEntryId: fc.constantFrom(...ids),
    tokensBefore: fc.nat(),
  },
  { requiredKeys: ['id', 'parentId', 'type', 'timestamp', 'preview'] },
);
const nodes = fc.array(fc.tuple(node, fc.integer({ min: 1, max: 5 })), { maxLength: 40 }).map((list) => {
  let line = 0;
  return list.map(([n, gap]) => ({ ...n, line: (line += gap) }) as EntryNodeDto);
});

describe('entry-nodes', () => {
  it('unpacks to the nodes it packed, through JSON', () => {
    fc.assert(
      fc.property(nodes, (list) => {
        const wire = JSON.parse(JSON.stringify(packEntryNodes(list)));
        expect(unpackEntryNodes(wire)).toEqual(list);
      }),
      { numRuns: 500 },
    );
  });

  it('sends each kind once and shares its strings among the nodes', () => {
    const list: EntryNodeDto[] = Array.from({ length: 50 }, (_, i) => ({
      id: `e${i}`,
      parentId: i === 0 ? null : `e${i - 1}`,
      type: 'message',
      line: i + 2,
      timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      preview: `text ${i}`,
      role: i % 2 ? 'assistant' : 'user',
      ...(i % 2 ? { model: 'openai/gpt-5', toolNames: ['read'] } : {}),
    }));
    const graph = { sessionId: 's', entries: list } as unknown as Parameters<typeof graphToWire>[0];
    const wire = graphToWire(graph);
    expect(wire.entries.kinds).toHaveLength(2);
    expect(wire.entries.times.slice(1).every((d) => d === 1000)).toBe(true);
    const back = graphFromWire(JSON.parse(JSON.stringify(wire)));
    expect(back.entries).toEqual(list);
    expect(back.entries[3]!.toolNames).toBe(back.entries[5]!.toolNames);
  });
});
