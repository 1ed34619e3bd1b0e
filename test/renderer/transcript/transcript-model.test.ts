import { describe, expect, it } from 'vitest';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import {
  newestTip,
  transcriptRows,
  unreadCount,
  unreadSince,
} from '../../../renderer/src/features/transcript/transcript-model';
import { chain, lines, node } from '../helpers';

describe('transcriptRows', () => {
  const entries = lines([
    node('u1', null),
    node('a1', 'u1', { role: 'assistant' }),
    node('x1', 'u1', { role: 'assistant', preview: 'other way' }),
    node('x2', 'x1'),
    node('x3', 'x1', { preview: 'newest on x' }),
    node('c1', 'a1', { type: 'compaction', role: undefined }),
    node('m1', 'c1', { type: 'model_change', role: undefined }),
    node('u2', 'm1'),
  ]);
  const index = buildTreeIndex(entries, 'u2');

  it('lists the path root → leaf with kinds, and offers the other branches at a branch point', () => {
    const rows = transcriptRows(index, 'u2');
    expect(rows.map((r) => r.id)).toEqual(['u1', 'a1', 'c1', 'm1', 'u2']);
    expect(rows.map((r) => r.kind)).toEqual(['message', 'message', 'compaction', 'meta', 'message']);
    expect(rows[0]!.branches).toEqual([{ id: 'x1', tipId: 'x3', preview: 'other way' }]);
    expect(rows.slice(1).every((r) => r.branches.length === 0)).toBe(true);
  });

  it('follows a what-if leaf on another branch', () => {
    const rows = transcriptRows(index, 'x2');
    expect(rows.map((r) => r.id)).toEqual(['u1', 'x1', 'x2']);
    expect(rows[0]!.branches.map((b) => b.id)).toEqual(['a1']);
    expect(rows[1]!.branches.map((b) => b.tipId)).toEqual(['x3']);
  });

  it('is empty without a leaf, and the newest tip is the last-written child all the way down', () => {
    expect(transcriptRows(index, null)).toEqual([]);
    expect(transcriptRows(index, 'missing')).toEqual([]);
    expect(index.ids[newestTip(index, index.indexOf.get('u1')!)]).toBe('x3');
  });

  it('walks a long path without recursion', () => {
    const long = chain(50_000);
    const rows = transcriptRows(buildTreeIndex(long, 'e49999'), 'e49999');
    expect(rows).toHaveLength(50_000);
    expect(rows[49_999]!.id).toBe('e49999');
  });

  it('counts what arrived after the last seen leaf', () => {
    const rows = transcriptRows(index, 'u2');
    expect(unreadCount(rows, 'a1')).toBe(3);
    expect(unreadCount(rows, 'u2')).toBe(0);
    expect(unreadCount(rows, null)).toBe(0);
    expect(unreadCount(rows, 'x1')).toBe(0);
    expect(unreadSince(index, 'u2', 'a1')).toBe(3);
    expect(unreadSince(index, 'u2', 'u2')).toBe(0);
    expect(unreadSince(index, 'u2', 'x1')).toBe(0);
  });
});
