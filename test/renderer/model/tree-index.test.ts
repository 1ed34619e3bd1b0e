import { describe, expect, it } from 'vitest';
import { buildTreeIndex, childIds, orderIds, parentIdOf, rootIds } from '../../../renderer/src/model/tree-index';
import { chain, lines, node } from '../helpers';

describe('buildTreeIndex', () => {
  it('orders children oldest first by timestamp, whatever the file order', () => {
    const entries = lines([
      node('r', null),
      node('late', 'r', { timestamp: '2026-03-01T00:00:03.000Z' }),
      node('early', 'r', { timestamp: '2026-03-01T00:00:01.000Z' }),
      node('mid', 'r', { timestamp: '2026-03-01T00:00:02.000Z' }),
    ]);
    const index = buildTreeIndex(entries, 'r');
    expect(childIds(index, 'r')).toEqual(['early', 'mid', 'late']);
  });

  it('puts the child whose subtree holds the leaf first (like pi /tree)', () => {
    const entries = lines([
      node('r', null),
      node('a', 'r', { timestamp: '2026-03-01T00:00:01.000Z' }),
      node('b', 'r', { timestamp: '2026-03-01T00:00:02.000Z' }),
      node('b1', 'b'),
      node('c', 'r', { timestamp: '2026-03-01T00:00:03.000Z' }),
    ]);
    expect(childIds(buildTreeIndex(entries, 'b1'), 'r')).toEqual(['b', 'a', 'c']);
    expect(childIds(buildTreeIndex(entries, 'c'), 'r')).toEqual(['c', 'a', 'b']);
    expect(orderIds(buildTreeIndex(entries, 'b1'))).toEqual(['r', 'b', 'b1', 'a', 'c']);
  });

  it('treats null, empty, missing and self parents as roots; the leaf root comes first', () => {
    const entries = lines([
      node('x', null),
      node('y', ''),
      node('z', 'nowhere'),
      node('self', 'self'),
      node('z1', 'z'),
    ]);
    const index = buildTreeIndex(entries, 'z1');
    expect(rootIds(index)[0]).toBe('z');
    expect(new Set(rootIds(index))).toEqual(new Set(['x', 'y', 'z', 'self']));
    expect(parentIdOf(index, 'self')).toBeNull();
    expect(parentIdOf(index, 'z1')).toBe('z');
  });

  it('breaks cycles instead of hanging, and keeps every entry reachable from a root', () => {
    const entries = lines([node('a', 'c'), node('b', 'a'), node('c', 'b'), node('d', 'c'), node('r', null)]);
    const index = buildTreeIndex(entries, 'd');
    expect(index.order).toHaveLength(5);
    expect(new Set(orderIds(index))).toEqual(new Set(['a', 'b', 'c', 'd', 'r']));
    // Exactly one edge of the loop is cut.
    const cut = ['a', 'b', 'c'].filter((id) => parentIdOf(index, id) === null);
    expect(cut).toHaveLength(1);
  });

  it('keeps the later line of a duplicated id', () => {
    const entries = lines([
      node('r', null),
      node('dup', 'r', { preview: 'first' }),
      node('dup', 'r', { preview: 'second' }),
    ]);
    const index = buildTreeIndex(entries, 'dup');
    expect(index.entries[index.indexOf.get('dup')!]!.preview).toBe('second');
    expect(childIds(index, 'r')).toEqual(['dup']);
  });

  it('indexes a 100k-entry chain without recursion', () => {
    const entries = chain(100_000);
    const index = buildTreeIndex(entries, 'e99999');
    expect(index.order).toHaveLength(100_000);
    expect(index.onLeafBranch.reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(orderIds(index).slice(0, 3)).toEqual(['e0', 'e1', 'e2']);
  });
});
