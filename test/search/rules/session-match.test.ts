import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchQuery } from '../../../electron/search/rules/search-query';
import { sessionMatch } from '../../../electron/search/rules/session-match';

function parsed(q: string): SearchQuery {
  const p = parseSearchQuery(q);
  if (!p.ok) throw new Error(p.error);
  return p.query;
}

const fields = { id: '0190abcd-0000', path: '/r/--p--/s.jsonl', cwd: '/home/u/zebra-app', name: 'Refactor the parser' };
const at = (q: string, f = fields) => {
  const { snippet, match } = sessionMatch(parsed(q), f);
  return snippet.slice(match[0], match[1]);
};

describe('a session hit marks where it matched', () => {
  it('a name hit marks the name', () => {
    expect(sessionMatch(parsed('parser'), fields)).toEqual({ snippet: 'Refactor the parser', match: [13, 19] });
  });
  it('a cwd or id hit marks it there', () => {
    expect(at('zebra')).toBe('zebra');
    expect(at('abcd')).toBe('abcd');
  });
  it('a scattered word marks from its first letter to its last', () => {
    expect(at('rfctr')).toBe('Refactor');
  });
});
