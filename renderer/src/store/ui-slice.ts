import type { StateCreator } from 'zustand/vanilla';
import { readPref, writePref } from '../lib/prefs';
import type { CanopyState } from './index';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEMES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
/** auto: shown when the canvas has room for it next to the nodes. */
export type MinimapChoice = 'auto' | 'on' | 'off';
const MINIMAPS: readonly MinimapChoice[] = ['auto', 'on', 'off'];

const THEME_KEY = 'canopy.theme';
const MINIMAP_KEY = 'canopy.minimap';

/** Overlays and look: nothing here belongs to a session. */
export interface UiSlice {
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  theme: ThemeChoice;
  minimap: MinimapChoice;

  setPaletteOpen(open: boolean): void;
  setShortcutsOpen(open: boolean): void;
  setTheme(theme: ThemeChoice): void;
  setMinimap(minimap: MinimapChoice): void;
}

export const createUiSlice: StateCreator<CanopyState, [], [], UiSlice> = (set) => ({
  paletteOpen: false,
  shortcutsOpen: false,
  theme: readPref(THEME_KEY, THEMES, 'system'),
  minimap: readPref(MINIMAP_KEY, MINIMAPS, 'auto'),

  setPaletteOpen: (paletteOpen) => set(paletteOpen ? { paletteOpen, shortcutsOpen: false } : { paletteOpen }),
  setShortcutsOpen: (shortcutsOpen) => set(shortcutsOpen ? { shortcutsOpen, paletteOpen: false } : { shortcutsOpen }),
  setTheme: (theme) => {
    writePref(THEME_KEY, theme);
    set({ theme });
  },
  setMinimap: (minimap) => {
    writePref(MINIMAP_KEY, minimap);
    set({ minimap });
  },
});
