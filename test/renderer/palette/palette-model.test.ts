import { describe, expect, it } from 'vitest';
import type { CommandAction } from '../../../renderer/src/commands/registry';
import { fuzzyScore, queryWords } from '../../../renderer/src/features/palette/fuzzy';
import { paletteItems } from '../../../renderer/src/features/palette/palette-model';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { row, summary } from '../fake-api';

describe('palette filtering', () => {
  const entry = (id: string, preview: string, role = 'user'): EntryNodeDto =>
    ({ id, parentId: null, type: 'message', role, line: 1, timestamp: '', preview }) as EntryNodeDto;
  const sessions = [
    row('aaa111', '/home/al/canopy', {
      summary: summary('Refactor the parser', 'please refactor', 9),
      modifiedAt: '2026-01-05T00:00:00Z',
    }),
    row('bbb222', '/srv/infra', {
      summary: summary(null, 'deploy the cluster', 3),
      modifiedAt: '2026-01-06T00:00:00Z',
    }),
    row('ccc333', '/home/al/notes', { modifiedAt: '2026-01-01T00:00:00Z' }),
  ];
  const actions: CommandAction[] = [
    { id: 'graph.fit', title: 'Fit the graph', group: 'View', run: () => {} },
    { id: 'entry.fork', title: 'Fork here…', group: 'Entry', enabled: () => false, run: () => {} },
  ];
  const src = (entries: EntryNodeDto[] = []) => ({
    actions,
    isEnabled: (a: CommandAction) => (a.enabled ? a.enabled() : true),
    sessions,
    summaries: {},
    entries,
  });

  it('scores word starts over inner hits and rejects missing letters', () => {
    expect(fuzzyScore(queryWords('par'), 'refactor the parser')).not.toBeNull();
    expect(fuzzyScore(queryWords('rtp'), 'refactor the parser')).not.toBeNull();
    expect(fuzzyScore(queryWords('xyz'), 'refactor the parser')).toBeNull();
    expect(fuzzyScore(['par'], 'parser')!).toBeGreaterThan(fuzzyScore(['par'], 'the parser')!);
    expect(fuzzyScore(['par'], 'the parser')!).toBeGreaterThan(fuzzyScore(['par'], 'compare')!);
  });

  it('finds sessions by name, first message, id and cwd; entries of the open session; only enabled actions', () => {
    expect(paletteItems('parser', src()).sessions.map((i) => i.key)).toEqual(['s:aaa111']);
    expect(paletteItems('cluster', src()).sessions.map((i) => i.key)).toEqual(['s:bbb222']);
    expect(paletteItems('ccc3', src()).sessions.map((i) => i.key)).toEqual(['s:ccc333']);
    expect(paletteItems('infra', src()).sessions.map((i) => i.key)).toEqual(['s:bbb222']);
    const entries = [entry('e1', 'make the tests pass'), entry('e2', 'write the README', 'assistant')];
    expect(paletteItems('readme', src(entries)).entries.map((i) => i.key)).toEqual(['e:e2']);
    expect(paletteItems('fit', src()).actions.map((i) => i.key)).toEqual(['a:graph.fit']);
    expect(paletteItems('fork', src()).actions).toEqual([]);
    // No query: actions and the most recent sessions first, no entries.
    const empty = paletteItems('', src(entries));
    expect(empty.sessions.map((i) => i.key)).toEqual(['s:bbb222', 's:aaa111', 's:ccc333']);
    expect(empty.entries).toEqual([]);
  });

  it('ranks sessions as the list does, and an action named by the words before a session holding them', () => {
    const withFork = [
      ...sessions,
      row('ddd444', '/home/al/x', { summary: summary(null, 'please fork here and there', 2) }),
      row('eee555', '/home/al/y', { summary: summary(null, 'f o r k scattered', 2) }),
    ];
    const on = { ...src(), sessions: withFork, isEnabled: () => true };
    const r = paletteItems('fork here', on);
    expect(r.sessions.map((i) => (i.kind === 'session' ? i.sessionId : ''))).toEqual(['ddd444']);
    expect(r.actions[0]!.score).toBeGreaterThan(r.sessions[0]!.score);
    // A word only in a first message: never scattered over it.
    expect(paletteItems('frk', on).sessions).toEqual([]);
  });
});
