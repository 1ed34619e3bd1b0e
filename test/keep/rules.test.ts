import { describe, expect, it } from 'vitest';
import { applyPatch, familyOf, normalTag } from '../../electron/keep/rules';
import { tagsInUse } from '../../electron/shared/keep-tags';
import { parseTrashInfo } from '../../electron/storage/freedesktop-trash';

const NOW = '2026-01-01T00:00:00.000Z';

describe('keep rules', () => {
  it('applies a patch field by field; clearing the last field drops the record', () => {
    const a = applyPatch(undefined, { name: '  Release  ', tags: ['#Ship It', 'ship-it', ''], pinned: true }, NOW)!;
    expect(a).toEqual({ name: 'Release', tags: ['ship-it'], pinned: true, updatedAt: NOW });
    const b = applyPatch(a, { note: 'later' }, NOW)!;
    expect(b).toMatchObject({ name: 'Release', note: 'later' });
    expect(applyPatch(b, { name: null, tags: [], pinned: false, note: '' }, NOW)).toBeNull();
    expect(normalTag('  ##Big  Idea ')).toBe('big-idea');
  });

  it('counts tags in use, most used first', () => {
    expect(tagsInUse({ a: { tags: ['x', 'y'], updatedAt: NOW }, b: { tags: ['y'], updatedAt: NOW } })).toEqual([
      ['y', 2],
      ['x', 1],
    ]);
  });

  it('takes a session alone, or with its forks and their forks (a cycle cut)', () => {
    const rows = [
      { sessionId: 'a', parentSessionId: null },
      { sessionId: 'b', parentSessionId: 'a' },
      { sessionId: 'c', parentSessionId: 'b' },
      { sessionId: 'd', parentSessionId: null },
      { sessionId: 'e', parentSessionId: 'f' },
      { sessionId: 'f', parentSessionId: 'e' },
    ];
    expect(familyOf(rows, 'a', false).map((r) => r.sessionId)).toEqual(['a']);
    expect(familyOf(rows, 'a', true).map((r) => r.sessionId)).toEqual(['a', 'b', 'c']);
    expect(familyOf(rows, 'e', true).map((r) => r.sessionId)).toEqual(['e', 'f']);
    expect(familyOf(rows, 'zz', true)).toEqual([]);
  });

  it('reads a freedesktop .trashinfo (the path decoded)', () => {
    const text = '[Trash Info]\nPath=/home/u/a%20b/s.jsonl\nDeletionDate=2026-01-01T10:00:00\n';
    expect(parseTrashInfo(text)).toEqual({ path: '/home/u/a b/s.jsonl', deletedAt: '2026-01-01T10:00:00' });
    expect(parseTrashInfo('Path=/x')).toBeNull();
  });
});
