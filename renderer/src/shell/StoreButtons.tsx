/** Top-bar buttons for the whole-store views (the features register their actions; the bar runs them). */
import { useCommandRegistry } from '../commands/commands-context';
import { CONTRIBUTED } from '../commands/registry';

export function StoreButtons() {
  const registry = useCommandRegistry();
  return (
    <>
      <button
        type="button"
        className="topbar-button"
        data-testid="open-usage"
        title={CONTRIBUTED.showUsage.title}
        onClick={() => registry?.run(CONTRIBUTED.showUsage.id)}
      >
        Usage
      </button>
      <button
        type="button"
        className="topbar-button"
        data-testid="open-storage"
        title={CONTRIBUTED.showStorage.title}
        onClick={() => registry?.run(CONTRIBUTED.showStorage.id)}
      >
        Storage
      </button>
    </>
  );
}
