import { describe, expect, it } from 'vitest';
import { groupHits, isSearchShortcut, splitSnippet } from '../../../renderer/src/features/search/search-model';
import type { SearchHitDto } from '../../../electron/shared/dto';

function hit(sessionId: string, entryId: string, extra: Partial<SearchHitDto> = {}): SearchHitDto {
  return { sessionId, entryId, line: 2, role: 'user', field: 'text', time: null, snippet: 'a needle b', match: [2, 8], sessionName: null, cwd: '/p', fileName: `${sessionId}.jsonl`, ...extra };
}

describe('search panel model', () => {
  it('groups hits by session in the order of each session\'s best hit', () => {
    const groups = groupHits([hit('s2', 'x'), hit('s1', 'y', { sessionName: 'Named' }), hit('s2', 'z')]);
    expect(groups.map((g) => [g.sessionId, g.title, g.hits.map((h) => h.entryId)])).toEqual([
      ['s2', 's2.jsonl', ['x', 'z']],
      ['s1', 'Named', ['y']],
    ]);
  });

  it('splits the snippet around the match', () => {
    expect(splitSnippet({ snippet: 'a needle b', match: [2, 8] })).toEqual(['a ', 'needle', ' b']);
  });

  it('opens on Ctrl+Shift+F or Cmd+Shift+F only', () => {
    const k = (o: Partial<KeyboardEvent>) => ({ key: 'F', ctrlKey: false, metaKey: false, shiftKey: true, altKey: false, ...o });
    expect(isSearchShortcut(k({ ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(k({ metaKey: true }))).toBe(true);
    expect(isSearchShortcut(k({ ctrlKey: true, shiftKey: false }))).toBe(false);
    expect(isSearchShortcut(k({ ctrlKey: true, key: 'g' }))).toBe(false);
  });
});
