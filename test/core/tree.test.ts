import { describe, expect, it } from 'vitest';
import { buildTree, detectProfile, encodeCwd, listTreeEntries, sessionFileName } from '../../electron/core';
import { assistant, compaction, entry, header, label, leaf, session, ts, user } from './helpers';

const childrenOf = (t: ReturnType<typeof buildTree>) => Object.fromEntries([...t.children.entries()]);

describe('buildTree', () => {
  it('roots: null, "", self-parent and missing parent (pi getTree)', () => {
    const t = buildTree(
      session([user('a', null), user('b', ''), user('c', 'c'), user('d', 'ghost'), assistant('e', 'a')]),
    );
    expect(t.roots).toEqual(['a', 'b', 'c', 'd']);
    expect(childrenOf(t)).toEqual({ a: ['e'] });
    expect(t.issues.map((i) => [i.line, i.kind])).toEqual([
      [4, 'cycle'],
      [5, 'dangling_parent'],
    ]);
  });

  it('children are ordered oldest first by timestamp, ties keep file order', () => {
    const s = session([
      user('a', null),
      { ...assistant('late', 'a'), timestamp: ts(100) },
      { ...assistant('early', 'a'), timestamp: ts(50) },
      { ...assistant('tie1', 'a'), timestamp: ts(70) },
      { ...assistant('tie2', 'a'), timestamp: ts(70) },
    ]);
    expect(buildTree(s).children.get('a')).toEqual(['early', 'tie1', 'tie2', 'late']);
  });

  it('a duplicate id is one node: the later line', () => {
    const t = buildTree(session([user('a', null), assistant('b', 'a'), user('x', null), assistant('b', 'x')]));
    expect(t.roots).toEqual(['a', 'x']);
    expect(childrenOf(t)).toEqual({ x: ['b'] });
  });

  it('breaks a cycle at its member earliest in the file and reports it', () => {
    const s = session([user('r', null), user('a', 'c'), assistant('b', 'a'), user('c', 'b'), assistant('d', 'b')]);
    const t = buildTree(s);
    expect(t.roots).toEqual(['r', 'a']);
    expect(childrenOf(t)).toEqual({ a: ['b'], b: ['c', 'd'] });
    expect(t.issues).toEqual([expect.objectContaining({ line: 3, kind: 'cycle' })]);
  });

  it('reaches every entry once even with several cycles', () => {
    const s = session([user('a', 'b'), user('b', 'a'), user('c', 'e'), user('d', 'c'), user('e', 'd'), user('f', 'd')]);
    const t = buildTree(s);
    const seen: string[] = [];
    const stack = [...t.roots];
    while (stack.length) {
      const id = stack.pop()!;
      seen.push(id);
      stack.push(...(t.children.get(id) ?? []));
    }
    expect(seen.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(t.issues.filter((i) => i.kind === 'cycle')).toHaveLength(2);
  });
});

describe('listTreeEntries', () => {
  it('lists every line in file order with role and targetId', () => {
    const s = session([
      user('a', null),
      assistant('b', 'a'),
      label('l', 'b', 'a', 'x'),
      leaf('f', 'l', null),
      entry('context_edit', 'e', 'f', { targetId: 'b', replacement: null }),
      user('a', null),
    ]);
    expect(listTreeEntries(s)).toEqual([
      { id: 'a', parentId: null, type: 'message', line: 2, role: 'user' },
      { id: 'b', parentId: 'a', type: 'message', line: 3, role: 'assistant' },
      { id: 'l', parentId: 'b', type: 'label', line: 4, targetId: 'a' },
      { id: 'f', parentId: 'l', type: 'leaf', line: 5, targetId: null },
      { id: 'e', parentId: 'f', type: 'context_edit', line: 6, targetId: 'b' },
      { id: 'a', parentId: null, type: 'message', line: 7, role: 'user' },
    ]);
  });
});

describe('detectProfile', () => {
  it.each([
    ['plain CA file', [user('a', null), assistant('b', 'a')], header(), 'ca'],
    ['leaf entry', [user('a', null), leaf('f', 'a', null)], header(), 'h3'],
    ['active_tools_change', [entry('active_tools_change', 't', null, { activeToolNames: [] })], header(), 'h3'],
    [
      'compaction with retainedTail key (even undefined-valued null)',
      [user('a', null), compaction('k', 'a', 'a', { retainedTail: null })],
      header(),
      'h3',
    ],
    ['compaction without retainedTail', [user('a', null), compaction('k', 'a', 'a')], header(), 'ca'],
    ['header metadata', [user('a', null)], header({ metadata: {} }), 'h3'],
  ])('%s', (_name, entries, head, profile) => {
    expect(detectProfile(session(entries, head))).toBe(profile);
  });
});

describe('naming', () => {
  it.each([
    ['/home/alice/proj', '--home-alice-proj--'],
    ['/', '----'],
    ['/tmp/my-project', '--tmp-my-project--'],
    ['/tmp/my/project', '--tmp-my-project--'],
    ['/Users/a b/c.d', '--Users-a b-c.d--'],
    ['C:\\Users\\me\\proj', '--C--Users-me-proj--'],
    ['C:\\', '--C----'],
    ['\\\\srv\\share\\proj', '---srv-share-proj--'],
    ['//double/slash', '---double-slash--'],
  ])('encodeCwd(%j) = %j', (cwd, dir) => {
    expect(encodeCwd(cwd)).toBe(dir);
  });

  it('sessionFileName replaces : and . in the time', () => {
    expect(sessionFileName('2026-01-01T09:05:07.123Z', '019b-x_y')).toBe('2026-01-01T09-05-07-123Z_019b-x_y.jsonl');
  });
});
