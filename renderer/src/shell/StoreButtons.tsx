/** Top-bar buttons for the whole-store views (the features register their actions; the bar runs them). */
import { useCommandRegistry } from '../commands/commands-context';
import { CONTRIBUTED } from '../commands/registry';

const VIEWS = [
  { action: CONTRIBUTED.showUsage, testId: 'open-usage', label: 'Usage' },
  { action: CONTRIBUTED.showStorage, testId: 'open-storage', label: 'Storage' },
  { action: CONTRIBUTED.doctorStore, testId: 'open-doctor', label: 'Doctor' },
];

export function StoreButtons() {
  const registry = useCommandRegistry();
  return (
    <>
      {VIEWS.map((v) => (
        <button
          key={v.testId}
          type="button"
          className="topbar-button"
          data-testid={v.testId}
          title={v.action.title}
          onClick={() => registry?.run(v.action.id)}
        >
          {v.label}
        </button>
      ))}
    </>
  );
}
