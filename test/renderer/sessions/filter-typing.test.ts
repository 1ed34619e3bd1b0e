import { describe, expect, it } from 'vitest';
import { buildSidebarRows, sidebarRowsWhileTyping } from '../../../renderer/src/features/sessions/rows';
import { narrowsFrom } from '../../../renderer/src/model/session-rank';
import { syntheticList } from '../../fixtures/synthetic-list';

describe('the filter while typing', () => {
  it('a query that only adds to the last narrows it; quotes, regexes and edits do not', () => {
    expect(narrowsFrom('auth', 'auth t')).toBe(true);
    expect(narrowsFrom('au', 'auth')).toBe(true);
    expect(narrowsFrom('auth', 'aut')).toBe(false);
    expect(narrowsFrom('', 'a')).toBe(false);
    expect(narrowsFrom('a', 'a "b c"')).toBe(false);
    expect(narrowsFrom('re', 're:x')).toBe(false);
  });

  it('gives, letter by letter, exactly the rows a fresh build gives', () => {
    const { list, summaries } = syntheticList(600);
    const typing = sidebarRowsWhileTyping();
    for (const q of ['auth token', 'proj 12', 'named', 'zebrafish', 'x']) {
      for (let k = 1; k <= q.length; k++) {
        const opts = { query: q.slice(0, k), sort: 'modified' as const, collapsed: {} };
        const keys = (rows: ReturnType<typeof buildSidebarRows>) => rows.map((r) => r.key);
        expect(keys(typing(list, summaries, opts))).toEqual(keys(buildSidebarRows(list, summaries, opts)));
      }
    }
  });
});
