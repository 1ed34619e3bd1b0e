import { describe, expect, it } from 'vitest';
import { computeLabels, detectProfile, sessionName, type Entry, type ParsedSession } from '../../electron/core';
import { messageMissing } from '../../electron/core/rules/entry-fields';
import { entry, header, indexText, session, user } from './helpers';

const lines = (records: unknown[]): string[] => [header(), ...records].map((r) => JSON.stringify(r));

/** The same lists the plain way: a filter over the profile's entries. */
function plain(s: ParsedSession): { byType: Record<string, string[]>; without: string[] } {
  const byType: Record<string, string[]> = {};
  const without: string[] = [];
  for (const e of s.entries) {
    if (e.type === 'message') {
      if (messageMissing(e)) without.push(e.id);
    } else {
      (byType[e.type] ??= []).push(e.id);
    }
  }
  return { byType, without };
}

function listed(s: ParsedSession): { byType: Record<string, string[]>; without: string[] } {
  const t = s.entriesOf('ca');
  const byType: Record<string, string[]> = {};
  for (const type of new Set(s.entries.map((e) => e.type))) {
    if (type === 'message') continue;
    byType[type] = t.ofType(type).map((e: Entry) => e.id);
  }
  return { byType, without: t.messagesWithout.map((e) => e.id) };
}

const records = [
  user('a', null),
  entry('label', 'l1', 'a', { targetId: 'a', label: 'first' }),
  entry('session_info', 'n1', 'l1', { name: '  Named  ' }),
  entry('message', 'm0', 'n1', {}), // no message: pi reports it
  entry('custom', 'c1', 'm0', { customType: 'x', data: 1 }),
  user('b', 'c1'),
];

describe('EntrySource type lists', () => {
  it('lists each non-message type and the message entries without a message, in file order (eager parse)', () => {
    const s = session(records);
    expect(listed(s)).toEqual(plain(s));
    expect(s.entriesOf('ca').ofType('leaf')).toEqual([]);
  });

  it('is the same when an indexer fills it while indexing', () => {
    const s = indexText(`${lines(records).join('\n')}\n`).result();
    expect(listed(s)).toEqual(plain(s));
    expect(s.entriesOf('ca').messagesWithout.map((e) => e.id)).toEqual(['m0']);
    expect(computeLabels(s, 'ca').labels.get('a')).toBe('first');
    expect(sessionName(s)).toBe('Named');
  });

  it('forgets a provisional last line that is taken back and replaced', () => {
    const complete = `${lines(records).join('\n')}\n`;
    const indexer = indexText(
      `${complete}${JSON.stringify(entry('label', 'l2', 'b', { targetId: 'b', label: 'temp' }))}`,
    );
    expect(computeLabels(indexer.result(), 'ca').labels.get('b')).toBe('temp');
    indexer.rollbackProvisional();
    const bytes = Buffer.from(JSON.stringify(user('l2', 'b')));
    indexer.pushLine(bytes, 0, bytes.length, records.length + 2, Buffer.byteLength(complete), true);
    const s = indexer.result();
    expect(listed(s)).toEqual(plain(s));
    expect(computeLabels(s, 'ca').labels.has('b')).toBe(false);
  });

  it('extends when entries are appended to the same session', () => {
    const s = session(records);
    expect(s.entriesOf('ca').ofType('leaf')).toHaveLength(0);
    expect(detectProfile(s)).toBe('ca');
    const more = session([entry('leaf', 'f1', null, { targetId: 'a' })]).entries;
    s.entries.push(...more);
    expect(
      s
        .entriesOf('ca')
        .ofType('leaf')
        .map((e) => e.id),
    ).toEqual(['f1']);
    expect(detectProfile(s)).toBe('h3');
  });
});

// The rules read entries only through EntrySource: over parseSession's array and over the index
// engine's columns it must answer the same, per profile.
describe('EntrySource: the parsed array and the index agree', () => {
  const noTimestamp = (id: string, parentId: string): string =>
    JSON.stringify({ type: 'label', id, parentId, targetId: 'a', label: 'x' });
  const withBad = [...records.slice(0, 3), noTimestamp('bad', 'n1'), ...records.slice(3), user('a', 'b')];
  const text = `${lines(withBad.map((r) => (typeof r === 'string' ? JSON.parse(r) : r))).join('\n')}\n`;

  const answers = (s: ParsedSession, profile: 'ca' | 'h3') => {
    const src = s.entriesOf(profile);
    return {
      count: src.count,
      list: src.list.map((e) => `${e.id}@${e.line}`),
      at: Array.from({ length: src.count }, (_, i) => src.entryAt(i).line),
      byId: [...src.byId].map(([id, e]) => `${id}@${e.line}`),
      labels: src.ofType('label').map((e) => e.id),
      without: src.messagesWithout.map((e) => e.id),
    };
  };

  it('for both profiles, with a line H3 rejects and a duplicate id', () => {
    const parsed = session(withBad);
    const indexed = indexText(text).result();
    expect(parsed.entries.find((e) => e.id === 'bad')?.strictInvalid).toBe('missing_timestamp');
    for (const profile of ['ca', 'h3'] as const)
      expect(answers(indexed, profile), profile).toEqual(answers(parsed, profile));
    expect(answers(parsed, 'ca').labels).toEqual(['l1', 'bad']);
    expect(answers(parsed, 'h3').labels).toEqual(['l1']);
    // the later 'a' wins in both readers' index
    expect(parsed.entriesOf('ca').byId.get('a')!.line).toBe(withBad.length + 1);
    // Only the engine keeps a parent column, and only for the entries it holds as they are.
    expect(parsed.entriesOf('ca').parents).toBeUndefined();
    expect(indexed.entriesOf('ca').parents).toBeDefined();
    expect(indexed.entriesOf('h3').parents).toBeUndefined();
  });

  it("H3's source over an array follows appends, also once a line it rejects arrives", () => {
    const s = session(records);
    const h3 = s.entriesOf('h3');
    expect(h3.list).toBe(s.entries);
    expect(h3.byId.has('b')).toBe(true);
    const more = session([noTimestamp('bad', 'b'), entry('label', 'l9', 'b', { targetId: 'b', label: 'y' })]).entries;
    s.entries.push(...more);
    expect(h3.list.map((e) => e.id)).toEqual([...records.map((r) => r.id), 'l9']);
    expect(h3.byId.has('bad')).toBe(false);
    expect(h3.byId.has('l9') && h3.byId.has('a')).toBe(true);
    expect(h3.ofType('label').map((e) => e.id)).toEqual(['l1', 'l9']);
    expect(
      s
        .entriesOf('ca')
        .ofType('label')
        .map((e) => e.id),
    ).toEqual(['l1', 'bad', 'l9']);
  });
});
