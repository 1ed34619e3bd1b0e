import { describe, expect, it } from 'vitest';
import { parseSessionText, readSession } from '../../electron/core';
import { jsonl, ts } from './helpers';

const v1Header = { type: 'session', id: 'old', timestamp: ts(0), cwd: '/x' };
const msg = (role: string, text: string, n: number) => ({
  type: 'message',
  timestamp: ts(n),
  message: { role, content: text, timestamp: n },
});

function parseWithIds(values: unknown[]) {
  let n = 0;
  return parseSessionText(jsonl(values as Record<string, unknown>[]), { newId: () => `id${n++}` });
}

describe('migrate v1 → v3 (in memory)', () => {
  it('gives v1 entries fresh ids chained in file order and bumps the header version', () => {
    const s = parseWithIds([v1Header, msg('user', 'a', 1), msg('assistant', 'b', 2), msg('user', 'c', 3)]);
    expect(s.format).toBe(1);
    expect(s.migrated).toBe(true);
    expect(s.header?.version).toBe(3);
    expect(s.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['id0', null],
      ['id1', 'id0'],
      ['id2', 'id1'],
    ]);
    expect(s.issues).toEqual([]);
  });

  it('names v1 entries by physical line when no id source is given: the same ids on every read', () => {
    const text =
      [JSON.stringify(v1Header), '', JSON.stringify(msg('user', 'a', 1)), JSON.stringify(msg('user', 'b', 2))].join(
        '\n',
      ) + '\n';
    const first = parseSessionText(text);
    expect(first.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['00000003', null],
      ['00000004', '00000003'],
    ]);
    expect(parseSessionText(text).entries.map((e) => e.id)).toEqual(first.entries.map((e) => e.id));
  });

  it('keeps physical line numbers of v1 entries', () => {
    const text =
      [
        JSON.stringify(v1Header),
        '',
        JSON.stringify(msg('user', 'a', 1)),
        'junk',
        JSON.stringify(msg('user', 'b', 2)),
      ].join('\n') + '\n';
    const s = parseSessionText(text);
    expect(s.entries.map((e) => e.line)).toEqual([3, 5]);
    expect(s.entries[1]!.parentId).toBe(s.entries[0]!.id);
  });

  // firstKeptEntryIndex counts parsed values, header = 0 (blank and unparsable lines do not count).
  const idx: [string, unknown, string | undefined, boolean][] = [
    ['index of an earlier entry', 2, 'id1', false],
    ['index 1 = first entry', 1, 'id0', false],
    ['index 0 = the header: no id', 0, undefined, false],
    ['forward index: target has no id yet', 4, undefined, false],
    ['out of range', 99, undefined, false],
    ['negative', -1, undefined, false],
    ['not a number: key kept', '2', undefined, true],
  ];
  it.each(idx)('compaction firstKeptEntryIndex: %s', (_name, index, expected, keyKept) => {
    const comp = { type: 'compaction', timestamp: ts(4), summary: 's', tokensBefore: 1, firstKeptEntryIndex: index };
    const text = [
      JSON.stringify(v1Header),
      JSON.stringify(msg('user', 'a', 1)),
      '',
      'not json',
      JSON.stringify(msg('assistant', 'b', 2)),
      JSON.stringify(comp),
      JSON.stringify(msg('user', 'c', 5)),
    ].join('\n');
    let n = 0;
    const s = parseSessionText(text, { newId: () => `id${n++}` });
    const c = s.entries.find((e) => e.type === 'compaction')!;
    expect(c.raw.firstKeptEntryId).toBe(expected);
    expect('firstKeptEntryIndex' in c.raw).toBe(keyKept);
  });

  it('CA context of a migrated compaction keeps entries from the mapped first kept id', () => {
    const s = parseWithIds([
      v1Header,
      msg('user', 'a', 1),
      msg('assistant', 'b', 2),
      { type: 'compaction', timestamp: ts(3), summary: 's', tokensBefore: 1, firstKeptEntryIndex: 2 },
      msg('user', 'c', 4),
    ]);
    const r = readSession(s);
    expect(r.contextEntryIds).toEqual(['id2', 'id1', 'id3']);
  });
});

describe('migrate v2 → v3', () => {
  it('renames hookMessage to custom and keeps everything else', () => {
    const s = parseWithIds([
      { type: 'session', version: 2, id: 'v2', timestamp: ts(0), cwd: '/x', branchedFrom: '/b.jsonl' },
      {
        type: 'message',
        id: 'a',
        parentId: null,
        timestamp: ts(1),
        message: { role: 'hookMessage', customType: 'h', content: 'x', display: true, timestamp: 1 },
      },
      {
        type: 'message',
        id: 'b',
        parentId: 'a',
        timestamp: ts(2),
        message: { role: 'user', content: 'y', timestamp: 2 },
      },
    ]);
    expect(s.format).toBe(2);
    expect(s.migrated).toBe(true);
    expect(s.header).toMatchObject({ version: 3, branchedFrom: '/b.jsonl' });
    expect(s.entries.map((e) => [e.id, e.parentId, e.role])).toEqual([
      ['a', null, 'custom'],
      ['b', 'a', 'user'],
    ]);
  });

  it('does not touch v3 files', () => {
    const s = parseWithIds([
      { type: 'session', version: 3, id: 'v3', timestamp: ts(0), cwd: '/x' },
      { type: 'message', id: 'a', parentId: null, timestamp: ts(1), message: { role: 'hookMessage', content: 'x' } },
    ]);
    expect(s.migrated).toBe(false);
    expect(s.entries[0]!.role).toBe('hookMessage');
  });

  it('loose version comparison like pi: "2" is migrated, "x" runs no step but counts as migrated', () => {
    const two = parseWithIds([
      { type: 'session', version: '2', id: 's', timestamp: ts(0), cwd: '/x' },
      { type: 'message', id: 'a', parentId: null, timestamp: ts(1), message: { role: 'hookMessage' } },
    ]);
    expect(two.entries[0]!.role).toBe('custom');
    const x = parseWithIds([
      { type: 'session', version: 'x', id: 's', timestamp: ts(0), cwd: '/x' },
      { type: 'message', id: 'a', parentId: null, timestamp: ts(1), message: { role: 'hookMessage' } },
    ]);
    expect(x.migrated).toBe(true);
    expect(x.entries[0]!.role).toBe('hookMessage');
  });
});
