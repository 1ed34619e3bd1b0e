/**
 * Shortcut strings as the action registry declares them: `mod+k`, `mod+shift+p`, `alt+1`, `?`.
 * `mod` is Ctrl, or Cmd on a Mac (either is accepted, so one declaration serves both).
 */
export interface Chord {
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** Lower-case key name as in KeyboardEvent.key (`k`, `?`, `arrowdown`, `1`). */
  key: string;
}

export function parseShortcut(text: string): Chord {
  const parts = text.toLowerCase().split('+');
  // `mod++` would name the plus key; a trailing empty part is that key.
  const key = parts.pop() || '+';
  const mods = new Set(parts);
  for (const m of mods)
    if (m !== 'mod' && m !== 'shift' && m !== 'alt') throw new Error(`Unknown modifier "${m}" in shortcut "${text}"`);
  if (!key) throw new Error(`Shortcut "${text}" names no key`);
  return { mod: mods.has('mod'), shift: mods.has('shift'), alt: mods.has('alt'), key };
}

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

const isLetter = (k: string) => /^[a-z]$/.test(k);
const isDigit = (k: string) => /^[0-9]$/.test(k);

/** Whether a key event is this chord. Symbols (`?`) ignore Shift, which typing them needs on most layouts. */
export function matchesChord(chord: Chord, e: KeyLike): boolean {
  if (chord.mod !== (e.ctrlKey || e.metaKey)) return false;
  if (chord.alt !== e.altKey) return false;
  const key = e.key.toLowerCase();
  // Alt+digit types another character on a Mac: the physical key decides.
  const sameKey = key === chord.key || (isDigit(chord.key) && e.code === `Digit${chord.key}`);
  if (!sameKey) return false;
  if (isLetter(chord.key) || isDigit(chord.key) || chord.key.length > 1) return chord.shift === e.shiftKey;
  return true;
}

/** Whether the chord would type into a text field (so it must not fire while one has focus). */
export function typesText(chord: Chord): boolean {
  return !chord.mod && !chord.alt && (chord.key.length === 1 || chord.key === 'space');
}

const NAMES: Record<string, string> = {
  home: 'Home',
  end: 'End',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
  enter: 'Enter',
  escape: 'Esc',
  space: 'Space',
};

/** Display keys for one shortcut, e.g. ['Ctrl', 'Shift', 'P'] or ['⌘', 'K']. */
export function shortcutKeys(text: string, mac: boolean): string[] {
  const c = parseShortcut(text);
  const out: string[] = [];
  if (c.mod) out.push(mac ? '⌘' : 'Ctrl');
  if (c.alt) out.push(mac ? '⌥' : 'Alt');
  if (c.shift) out.push(mac ? '⇧' : 'Shift');
  out.push(NAMES[c.key] ?? (c.key.length === 1 ? c.key.toUpperCase() : c.key));
  return out;
}

export function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}
