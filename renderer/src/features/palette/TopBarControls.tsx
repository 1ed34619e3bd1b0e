import { useCanopy } from '../../app-context';
import { THEMES, type ThemeChoice } from '../../store/ui-slice';
import { useCommandRegistry } from '../../commands/commands-context';
import { Keys } from './Keys';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The palette button (with its shortcut, as the registry declares it) and the theme switch. */
export function TopBarControls() {
  const registry = useCommandRegistry();
  const theme = useCanopy((s) => s.theme);
  const setTheme = useCanopy((s) => s.setTheme);
  const palette = registry?.get('palette.open');
  const help = registry?.get('help.shortcuts');
  return (
    <>
      {palette && (
        <button
          type="button"
          className="palette-button"
          data-testid="palette-button"
          onClick={() => registry!.run(palette.id)}
        >
          Commands {palette.shortcut?.[0] && <Keys shortcut={palette.shortcut[0]} />}
        </button>
      )}
      {help && (
        <button
          type="button"
          className="icon-button"
          aria-label={help.title}
          title={help.title}
          onClick={() => registry!.run(help.id)}
        >
          ?
        </button>
      )}
      <select
        className="compact"
        aria-label="Theme"
        data-testid="theme-switch"
        value={theme}
        onChange={(e) => setTheme(e.target.value as ThemeChoice)}
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </>
  );
}
