/**
 * readForGraph (the app's open: no context messages built) must equal readSession without its
 * context: leaf, path, context entry ids, labels, name and every issue, under both profiles, for
 * the current and hypothetical leaves, on parsed and on indexed sessions, and must not read the
 * bodies of the context's messages.
 */
import { describe, expect, it } from 'vitest';
import { isIndexedEntry, readForGraph, readSession, type ParsedSession, type Profile } from '../../electron/core';
import {
  assistant,
  compaction,
  entry,
  header,
  indexedSession,
  indexText,
  jsonl,
  label,
  message,
  session,
  user,
} from './helpers';

type Rec = Record<string, unknown>;

const edit = (id: string, parentId: string, targetId: unknown, fields: Rec = {}) =>
  entry('context_edit', id, parentId, { targetId, ...fields });
const screenshot = (id: string, parentId: string | null) =>
  message(id, parentId, {
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image', data: 'QUJD'.repeat(5000), mimeType: 'image/png' },
    ],
    timestamp: 1,
  });

const table: [string, Rec[]][] = [
  [
    'a plain conversation with a label and a name',
    [
      user('a', null),
      assistant('b', 'a'),
      label('l', 'b', 'a', 'x'),
      entry('session_info', 'n', 'l', { name: ' run ' }),
    ],
  ],
  [
    'a compaction keeping a range',
    [user('a', null), assistant('b', 'a'), user('c', 'b'), compaction('k', 'c', 'b'), user('d', 'k')],
  ],
  [
    'two compactions, the older inside the kept range',
    [user('a', null), compaction('k1', 'a', 'a'), user('b', 'k1'), compaction('k2', 'b', 'a'), user('c', 'k2')],
  ],
  [
    'system messages left out of the kept range',
    [message('s', null, { role: 'system', content: 'x' }), user('a', 's'), compaction('k', 'a', 's'), user('d', 'k')],
  ],
  [
    'H3 retainedTail checkpoint',
    [
      user('a', null),
      assistant('b', 'a'),
      compaction('k', 'b', 'a', { retainedTail: [{ role: 'user', content: 'kept' }] }),
      user('d', 'k'),
    ],
  ],
  [
    'retainedTail an object (not a list)',
    [user('a', null), compaction('k', 'a', 'a', { retainedTail: { x: 1 } }), user('d', 'k')],
  ],
  [
    'retainedTail 0 (falsy, not a list)',
    [user('a', null), compaction('k', 'a', 'a', { retainedTail: 0 }), user('d', 'k')],
  ],
  ['retainedTail a string', [user('a', null), compaction('k', 'a', 'a', { retainedTail: 'ab' })]],
  [
    'message entries without a message',
    [entry('message', 'a', null), entry('message', 'b', 'a', { message: null }), user('c', 'b')],
  ],
  ['context_edit without replacement of a user message', [user('a', null), edit('e', 'a', 'a')]],
  [
    'context_edit without replacement of a custom_message',
    [
      user('a', null),
      entry('custom_message', 'cm', 'a', { customType: 't', content: 'x', display: true }),
      edit('e', 'cm', 'cm'),
    ],
  ],
  [
    'context_edit without replacement of a branch summary (not editable)',
    [user('a', null), entry('branch_summary', 'bs', 'a', { fromId: 'a', summary: 's' }), edit('e', 'bs', 'bs')],
  ],
  ['context_edit without replacement of a message without message', [entry('message', 'a', null), edit('e', 'a', 'a')]],
  [
    'context_edit of a compaction with a system message',
    [
      user('a', null),
      compaction('k', 'a', 'a', { systemMessage: { role: 'user', content: 's' } }),
      edit('e', 'k', 'k'),
    ],
  ],
  [
    'context_edit of a later compaction (no messages)',
    [user('a', null), compaction('k1', 'a', 'a'), user('b', 'k1'), compaction('k2', 'b', 'a'), edit('e', 'k2', 'k1')],
  ],
  [
    'context_edit with null replacement, and a numeric target',
    [user('a', null), edit('e', 'a', 'a', { replacement: null }), edit('e2', 'e', 5)],
  ],
  [
    'active_tools_change without a list',
    [entry('active_tools_change', 'a', null, { activeToolNames: 5 }), user('b', 'a')],
  ],
  ['a label pi cannot read (H3)', [user('a', null), label('l', 'a', 'a', 5 as unknown as string)]],
  ['a dangling parent and a branch', [user('a', 'gone'), assistant('b', 'a'), user('c', 'a'), assistant('d', 'c')]],
  [
    'screenshots on the context',
    [screenshot('a', null), assistant('b', 'a'), screenshot('c', 'b'), assistant('d', 'c')],
  ],
];

const withoutContext = (s: ParsedSession, profile: Profile, leafId?: string | null) => {
  const { context: _context, ...rest } = readSession(s, { profile, ...(leafId !== undefined ? { leafId } : {}) });
  return rest;
};

describe('readForGraph = readSession without the context', () => {
  it.each(table)('%s', (_name, entries) => {
    const ids = entries.map((e) => e.id as string);
    for (const profile of ['ca', 'h3'] as const) {
      for (const leafId of [undefined, null, ids[0], ids[ids.length - 1], 'nope']) {
        const what = `${profile} leaf ${String(leafId)}`;
        const want = withoutContext(session(entries), profile, leafId);
        expect(
          readForGraph(session(entries), { profile, ...(leafId !== undefined ? { leafId } : {}) }),
          `parsed, ${what}`,
        ).toEqual(want);
        expect(
          readForGraph(indexedSession(entries), { profile, ...(leafId !== undefined ? { leafId } : {}) }),
          `indexed, ${what}`,
        ).toEqual(want);
      }
    }
  });

  it('reports the issues the context projection reports', () => {
    const kinds = (entries: Rec[], profile: Profile) =>
      readForGraph(session(entries), { profile }).issues.map((i) => `${i.line}:${i.message}`);
    expect(kinds([user('a', null), edit('e', 'a', 'a')], 'ca')).toEqual(['3:entry e has no replacement']);
    expect(
      kinds(
        [user('a', null), entry('branch_summary', 'bs', 'a', { fromId: 'a', summary: 's' }), edit('e', 'bs', 'bs')],
        'ca',
      ),
    ).toEqual([]);
    expect(kinds([user('a', null), compaction('k', 'a', 'a', { retainedTail: 0 })], 'h3')).toEqual([
      '3:entry k has a retainedTail that is not a list',
    ]);
  });

  it('reads no message body of an indexed session (screenshots stay on disk)', () => {
    const entries = [
      screenshot('a', null),
      assistant('b', 'a'),
      user('c', 'b'),
      compaction('k', 'c', 'a'),
      screenshot('d', 'k'),
      assistant('e', 'd'),
    ];
    let reads = 0;
    const s = indexText(jsonl([header(), ...entries]), { onRead: () => void reads++ }).result();
    expect(s.entriesOf('ca').list.every(isIndexedEntry)).toBe(true);
    const r = readForGraph(s, { profile: 'ca' });
    expect(r.contextEntryIds).toEqual(['k', 'a', 'b', 'c', 'd', 'e']);
    expect(reads).toBe(0);
    // readSession reads them: its context holds the messages (the CLI's open).
    readSession(s, { profile: 'ca' });
    expect(reads).toBeGreaterThanOrEqual(5);
  });
});
