import { describe, expect, it, vi } from 'vitest';
import { createRegistry, CONTRIBUTED } from '../../../renderer/src/commands/registry';
import { matchesChord, parseShortcut, shortcutKeys } from '../../../renderer/src/commands/shortcuts';

const key = (
  k: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; shift: boolean; alt: boolean }> = {},
  code?: string,
) => ({
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
