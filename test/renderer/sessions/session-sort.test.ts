import { describe, expect, it } from 'vitest';
import { buildSidebarRows } from '../../../renderer/src/features/sessions/rows';
import { listOf, row, summary } from '../fake-api';

const sessions = [
  row('s-a', '/p/one', { sizeBytes: 100, modifiedAt: '2026-01-03T00:00:00Z', summary: summary('banana', null, 30) }),
  row('s-b', '/p/two', { sizeBytes: 900, modifiedAt: '2026-01-01T00:00:00Z', summary: summary('apple', null, 5) }),
  row('s-c', '/p/one', { sizeBytes: 500, modifiedAt: '2026-01-02T00:00:00Z', summary: summary('cherry', null, 12) }),
];
const ids = (rows: ReturnType<typeof buildSidebarRows>) =>
  rows.flatMap((r) => (r.kind === 'session' ? [r.session.sessionId] : [`[${r.project.cwd}]`]));

describe('session sort', () => {
  const list = listOf(sessions);
  it('sorts by name, size or entries across projects when not grouped', () => {
    const flat = (sort: 'name' | 'size' | 'entries' | 'modified') =>
      ids(buildSidebarRows(list, {}, { query: '', sort, group: false, collapsed: {} }));
    expect(flat('name')).toEqual(['s-b', 's-a', 's-c']);
    expect(flat('size')).toEqual(['s-b', 's-c', 's-a']);
    expect(flat('entries')).toEqual(['s-a', 's-c', 's-b']);
    expect(flat('modified')).toEqual(['s-a', 's-c', 's-b']);
  });
  it('keeps projects as headings when grouped, sorting inside each', () => {
    expect(ids(buildSidebarRows(list, {}, { query: '', sort: 'size', collapsed: {} }))).toEqual([
      '[/p/one]',
      's-c',
      's-a',
      '[/p/two]',
      's-b',
    ]);
  });
});
