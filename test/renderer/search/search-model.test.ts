import { describe, expect, it } from 'vitest';
import { groupHits, splitSnippet } from '../../../renderer/src/features/search/search-model';
import { CONTRIBUTED, createRegistry } from '../../../renderer/src/commands/registry';
import type { SearchHitDto } from '../../../electron/shared/dto';

function hit(sessionId: string, entryId: string, extra: Partial<SearchHitDto> = {}): SearchHitDto {
  return {
    sessionId,
    entryId,
    line: 2,
    role: 'user',
    field: 'text',
    time: null,
    snippet: 'a needle b',
    match: [2, 8],
    sessionName: null,
    cwd: '/p',
    fileName: `${sessionId}.jsonl`,
    ...extra,
  };
}

describe('search panel model', () => {
  it("groups hits by session in the order of each session's best hit", () => {
    const groups = groupHits([hit('s2', 'x'), hit('s1', 'y', { sessionName: 'Named' }), hit('s2', 'z')]);
    expect(groups.map((g) => [g.sessionId, g.title, g.hits.map((h) => h.entryId)])).toEqual([
      ['s2', 's2.jsonl', ['x', 'z']],
      ['s1', 'Named', ['y']],
    ]);
  });

  it('splits the snippet around the match', () => {
    expect(splitSnippet({ snippet: 'a needle b', match: [2, 8] })).toEqual(['a ', 'needle', ' b']);
  });

  it('opens on Ctrl+Shift+F or Cmd+Shift+F only (its action in the registry)', () => {
    const registry = createRegistry([{ ...CONTRIBUTED.searchSessions, run: () => {} }]);
    const k = (o: Partial<KeyboardEvent>) => ({
      key: 'F',
      ctrlKey: false,
      metaKey: false,
      shiftKey: true,
      altKey: false,
      ...o,
    });
    expect(registry.forKey(k({ ctrlKey: true }), false)?.id).toBe('search.sessions');
    expect(registry.forKey(k({ metaKey: true }), false)?.id).toBe('search.sessions');
    expect(registry.forKey(k({ ctrlKey: true, shiftKey: false, key: 'f' }), false)).toBeUndefined();
    expect(registry.forKey(k({ ctrlKey: true, key: 'G' }), false)).toBeUndefined();
  });
});
