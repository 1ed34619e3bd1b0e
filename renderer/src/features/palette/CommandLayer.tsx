import { useEffect } from 'react';
import { useCanopy } from '../../app-context';
import { CommandPalette } from './CommandPalette';
import { useCommandRegistry } from '../../commands/commands-context';
import { ShortcutsOverlay } from './ShortcutsOverlay';
import { useKeyBindings } from '../../commands/useKeyBindings';

/** Global keys, the palette, the `?` overlay and the chosen theme on <html>. */
export function CommandLayer() {
  useKeyBindings(useCommandRegistry());
  const theme = useCanopy((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  return (
    <>
      <CommandPalette />
      <ShortcutsOverlay />
    </>
  );
}
