import { describe, expect, it } from 'vitest';
import { computeLabels, detectProfile, sessionName, type Entry, type ParsedSession } from '../../electron/core';
import { messageMissing } from '../../electron/core/rules/entry-fields';
import { typeIndex } from '../../electron/core/index/type-index';
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
  const t = typeIndex(s, 'ca');
  const byType: Record<string, string[]> = {};
  for (const type of new Set(s.entries.map((e) => e.type))) {
    if (type === 'message') continue;
    byType[type] = t.of(type).map((e: Entry) => e.id);
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

describe('typeIndex', () => {
  it('lists each non-message type and the message entries without a message, in file order (eager parse)', () => {
    const s = session(records);
    expect(listed(s)).toEqual(plain(s));
    expect(typeIndex(s, 'ca').of('leaf')).toEqual([]);
  });

  it('is the same when an indexer fills it while indexing', () => {
    const s = indexText(`${lines(records).join('\n')}\n`).result();
    expect(listed(s)).toEqual(plain(s));
    expect(typeIndex(s, 'ca').messagesWithout.map((e) => e.id)).toEqual(['m0']);
    expect(computeLabels(s, 'ca').labels.get('a')).toBe('first');
    expect(sessionName(s)).toBe('Named');
  });

  it('forgets a provisional last line that is taken back and replaced', () => {
    const complete = `${lines(records).join('\n')}\n`;
    const indexer = indexText(`${complete}${JSON.stringify(entry('label', 'l2', 'b', { targetId: 'b', label: 'temp' }))}`);
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
    expect(typeIndex(s, 'ca').of('leaf')).toHaveLength(0);
    expect(detectProfile(s)).toBe('ca');
    const more = session([entry('leaf', 'f1', null, { targetId: 'a' })]).entries;
    s.entries.push(...more);
    expect(typeIndex(s, 'ca').of('leaf').map((e) => e.id)).toEqual(['f1']);
    expect(detectProfile(s)).toBe('h3');
  });
});
