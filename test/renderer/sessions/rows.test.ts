import { describe, expect, it } from 'vitest';
import { sessionTitle } from '../../../renderer/src/model/session-title';
import { buildSidebarRows, filterKeyMove, nestForks, OPENED_GROUP } from '../../../renderer/src/features/sessions/rows';
import { listOf, row, summary } from '../fake-api';

const list = listOf([
  row('old', '/p/alpha', { createdAt: '2026-01-01T00:00:00Z', modifiedAt: '2026-01-09T00:00:00Z' }),
  row('new', '/p/alpha', { createdAt: '2026-01-05T00:00:00Z', modifiedAt: '2026-01-06T00:00:00Z' }),
  row('beta1', '/p/beta', { createdAt: '2026-01-02T00:00:00Z', modifiedAt: '2026-01-10T00:00:00Z' }),
]);
const opts = { query: '', sort: 'modified' as const, collapsed: {} };
const keys = (rows: ReturnType<typeof buildSidebarRows>) => rows.map((r) => r.key);

describe('buildSidebarRows', () => {
  it('groups sessions under projects, most recently active project first, newest session first', () => {
    expect(keys(buildSidebarRows(list, {}, opts))).toEqual(['p:/p/beta', 's:beta1', 'p:/p/alpha', 's:old', 's:new']);
    expect(keys(buildSidebarRows(list, {}, { ...opts, sort: 'created' }))).toEqual([
      'p:/p/beta',
      's:beta1',
      'p:/p/alpha',
      's:new',
      's:old',
    ]);
  });

  it('filters by name, first message, id or cwd (all tokens) and drops empty projects', () => {
    const summaries = { old: summary('Refactor parser', null), new: summary(null, 'Fix the flaky watcher') };
    expect(keys(buildSidebarRows(list, summaries, { ...opts, query: 'FLAKY' }))).toEqual(['p:/p/alpha', 's:new']);
    expect(keys(buildSidebarRows(list, summaries, { ...opts, query: 'alpha parser' }))).toEqual([
      'p:/p/alpha',
      's:old',
    ]);
    expect(keys(buildSidebarRows(list, summaries, { ...opts, query: 'beta1' }))).toEqual(['p:/p/beta', 's:beta1']);
    expect(buildSidebarRows(list, summaries, { ...opts, query: 'zzz' })).toEqual([]);
    const shown = buildSidebarRows(list, summaries, { ...opts, query: 'flaky' })[0]!;
    expect(shown.kind === 'project' && shown.shown).toBe(1);
  });

  it('hides the sessions of a collapsed project but keeps its header', () => {
    expect(keys(buildSidebarRows(list, {}, { ...opts, collapsed: { '/p/alpha': true } }))).toEqual([
      'p:/p/beta',
      's:beta1',
      'p:/p/alpha',
    ]);
  });

  it('titles a session by name, else first message, else file name', () => {
    const r = row('x', '/p');
    expect(sessionTitle(r, summary('  Named ', 'hello'))).toBe('Named');
    expect(sessionTitle(r, summary(null, 'hello'))).toBe('hello');
    expect(sessionTitle(r, null)).toBe(r.fileName);
  });

  it('nests forks under their parent (oldest fork first), deeper forks deeper', () => {
    const family = listOf([
      row('mom', '/p', { createdAt: '2026-01-01T00:00:00Z', modifiedAt: '2026-01-01T00:00:00Z' }),
      row('kid-late', '/p', {
        parentSessionId: 'mom',
        createdAt: '2026-01-04T00:00:00Z',
        modifiedAt: '2026-01-09T00:00:00Z',
      }),
      row('kid-early', '/p', {
        parentSessionId: 'mom',
        createdAt: '2026-01-02T00:00:00Z',
        modifiedAt: '2026-01-02T00:00:00Z',
      }),
      row('grandkid', '/p', {
        parentSessionId: 'kid-early',
        createdAt: '2026-01-03T00:00:00Z',
        modifiedAt: '2026-01-03T00:00:00Z',
      }),
      row('other', '/p', { modifiedAt: '2026-01-05T00:00:00Z' }),
    ]);
    const rows = buildSidebarRows(family, {}, opts).filter((r) => r.kind === 'session');
    expect(rows.map((r) => (r.kind === 'session' ? [r.session.sessionId, r.depth] : null))).toEqual([
      ['other', 0],
      ['mom', 0],
      ['kid-early', 1],
      ['grandkid', 2],
      ['kid-late', 1],
    ]);
  });

  it('keeps a fork top level when its parent is filtered out or unknown, and survives a parent cycle', () => {
    const family = listOf([
      row('mom', '/p', { createdAt: '2026-01-01T00:00:00Z' }),
      row('kid', '/p', { parentSessionId: 'mom', createdAt: '2026-01-02T00:00:00Z' }),
      row('orphan', '/p', { parentSessionId: 'gone', parentSessionPath: '/x/gone.jsonl' }),
    ]);
    const summaries = { kid: summary('needle', null) };
    const filtered = buildSidebarRows(family, summaries, { ...opts, query: 'needle' }).filter(
      (r) => r.kind === 'session',
    );
    expect(filtered.map((r) => r.kind === 'session' && [r.session.sessionId, r.depth])).toEqual([['kid', 0]]);
    const all = nestForks(family.sessions);
    expect(all.find((r) => r.session.sessionId === 'orphan')!.depth).toBe(0);

    const cycle = nestForks([
      row('a', '/p', { parentSessionId: 'b' }),
      row('b', '/p', { parentSessionId: 'a' }),
      row('c', '/p', { parentSessionId: 'c' }),
    ]);
    expect(cycle.map((r) => r.session.sessionId).sort()).toEqual(['a', 'b', 'c']);
    expect(cycle.find((r) => r.session.sessionId === 'c')!.depth).toBe(0);
  });
});

describe('the "Opened" group', () => {
  it('lists opened and uploaded sessions first, under one group, whatever their cwd', () => {
    const rows = [
      row('r-1', '/home/p', { modifiedAt: '2026-02-01T00:00:00Z' }),
      row('o-1', '/else', { origin: 'opened', modifiedAt: '2025-01-01T00:00:00Z' }),
      row('u-1', '/home/p', { origin: 'uploaded', modifiedAt: '2025-01-02T00:00:00Z' }),
    ];
    const out = buildSidebarRows(listOf(rows), {}, { query: '', sort: 'modified', collapsed: {} });
    expect(out.map((r) => (r.kind === 'project' ? `p:${r.project.cwd}` : r.session.sessionId))).toEqual([
      `p:${OPENED_GROUP}`,
      'u-1',
      'o-1',
      'p:/home/p',
      'r-1',
    ]);
  });
});

describe('filterKeyMove (keys typed in the filter box)', () => {
  // p:/p/beta, s:beta1, p:/p/alpha, s:old, s:new
  const rows = buildSidebarRows(list, {}, opts);
  it('moves through sessions only, skipping project headings both ways', () => {
    expect(filterKeyMove(rows, -1, 'ArrowDown')).toBe(1);
    expect(filterKeyMove(rows, 1, 'ArrowDown')).toBe(3);
    expect(filterKeyMove(rows, 3, 'ArrowUp')).toBe(1);
    expect(filterKeyMove(rows, 1, 'ArrowUp')).toBe(1);
    expect(filterKeyMove(rows, 4, 'ArrowDown')).toBe(4);
    expect(filterKeyMove(rows, -1, 'ArrowUp')).toBe(4);
    expect(filterKeyMove(rows, 1, 'PageDown', 2)).toBe(3);
  });
  it('is null for other keys and for a list without sessions', () => {
    expect(filterKeyMove(rows, 1, 'a')).toBeNull();
    expect(filterKeyMove(rows.slice(0, 1), -1, 'ArrowDown')).toBeNull();
  });
});
