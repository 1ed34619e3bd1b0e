import { describe, expect, it, vi } from 'vitest';
import { fuzzyScore, queryWords } from '../../renderer/src/features/palette/fuzzy';
import { paletteItems } from '../../renderer/src/features/palette/palette-model';
import { createRegistry, CONTRIBUTED, type CommandAction } from '../../renderer/src/commands/registry';
import { matchesChord, parseShortcut, shortcutKeys } from '../../renderer/src/commands/shortcuts';
import { listKeyMove } from '../../renderer/src/ui/list-keys';
import type { EntryNodeDto } from '../../electron/shared/dto';
import { row, summary } from './fake-api';

const key = (k: string, mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {}, code?: string) => ({
  key: k,
  code,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
});

describe('shortcuts', () => {
  it('matches mod as Ctrl or Cmd, exact Shift for letters, any Shift for symbols', () => {
    const k = parseShortcut('mod+k');
    expect(matchesChord(k, key('k', { ctrl: true }))).toBe(true);
    expect(matchesChord(k, key('k', { meta: true }))).toBe(true);
    expect(matchesChord(k, key('k'))).toBe(false);
    expect(matchesChord(k, key('K', { ctrl: true, shift: true }))).toBe(false);
    expect(matchesChord(parseShortcut('mod+shift+p'), key('P', { ctrl: true, shift: true }))).toBe(true);
    expect(matchesChord(parseShortcut('?'), key('?', { shift: true }))).toBe(true);
    expect(matchesChord(parseShortcut('alt+1'), key('¡', { alt: true }, 'Digit1'))).toBe(true);
    expect(() => parseShortcut('hyper+k')).toThrow(/Unknown modifier/);
    expect(shortcutKeys('mod+shift+p', false)).toEqual(['Ctrl', 'Shift', 'P']);
    expect(shortcutKeys('mod+k', true)).toEqual(['⌘', 'K']);
  });
});

describe('action registry', () => {
  const act = (id: string, shortcut?: string[], enabled?: () => boolean) => ({
    id,
    title: id,
    group: 'General' as const,
    shortcut,
    enabled,
    run: vi.fn<() => void>(),
  });

  it('finds the action of a key, skips typing keys inside a text field and disabled actions', () => {
    let on = false;
    const palette = act('palette', ['mod+k']);
    const help = act('help', ['?']);
    const fit = act('fit', ['shift+f'], () => on);
    const r = createRegistry([palette, help, fit]);
    expect(r.forKey(key('k', { ctrl: true }), true)?.id).toBe('palette');
    expect(r.forKey(key('?', { shift: true }), false)?.id).toBe('help');
    expect(r.forKey(key('?', { shift: true }), true)).toBeUndefined();
    expect(r.forKey(key('F', { shift: true }), false)).toBeUndefined();
    on = true;
    expect(r.forKey(key('F', { shift: true }), false)?.id).toBe('fit');
    expect(r.run('fit')).toBe(true);
    expect(fit.run).toHaveBeenCalledTimes(1);
    expect(r.run('missing')).toBe(false);
  });

  it('refuses a shortcut bound twice, and takes contributed actions until they unregister', () => {
    const r = createRegistry([act('a', ['mod+o'])]);
    expect(() => r.register([{ ...CONTRIBUTED.openFile, run: () => {} }])).toThrow(/already bound to "a"/);
    const r2 = createRegistry([act('palette', ['mod+k'])]);
    const seen = vi.fn();
    r2.subscribe(seen);
    const run = vi.fn();
    const off = r2.register([{ ...CONTRIBUTED.openFile, run }]);
    expect(r2.get('open.file')?.title).toBe(CONTRIBUTED.openFile.title);
    expect(r2.forKey(key('o', { meta: true }), false)?.id).toBe('open.file');
    off();
    expect(r2.get('open.file')).toBeUndefined();
    expect(r2.list().map((a) => a.id)).toEqual(['palette']);
    expect(seen).toHaveBeenCalledTimes(2);
  });
});

describe('palette filtering', () => {
  const entry = (id: string, preview: string, role = 'user'): EntryNodeDto =>
    ({ id, parentId: null, type: 'message', role, line: 1, timestamp: '', preview }) as EntryNodeDto;
  const sessions = [
    row('aaa111', '/home/al/canopy', { summary: summary('Refactor the parser', 'please refactor', 9), modifiedAt: '2026-01-05T00:00:00Z' }),
    row('bbb222', '/srv/infra', { summary: summary(null, 'deploy the cluster', 3), modifiedAt: '2026-01-06T00:00:00Z' }),
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
});

describe('list keys', () => {
  it('moves by one, a page and to the ends, clamped', () => {
    expect(listKeyMove('ArrowDown', -1, 5)).toBe(0);
    expect(listKeyMove('ArrowUp', -1, 5)).toBe(4);
    expect(listKeyMove('ArrowDown', 4, 5)).toBe(4);
    expect(listKeyMove('ArrowUp', 0, 5)).toBe(0);
    expect(listKeyMove('PageDown', 1, 50, 10)).toBe(11);
    expect(listKeyMove('Home', 3, 5)).toBe(0);
    expect(listKeyMove('End', 0, 5)).toBe(4);
    expect(listKeyMove('x', 0, 5)).toBeNull();
    expect(listKeyMove('ArrowDown', -1, 0)).toBeNull();
  });
});
