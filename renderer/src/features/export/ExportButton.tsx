/** The open session's Share button (its menu entry for exports). */
import { useActions, useCanopy } from '../../app-context';

export function ExportButton() {
  const actions = useActions();
  const sessionId = useCanopy((s) => s.openSessionId);
  if (!sessionId) return null;
  return (
    <div className="export-bar">
      <button type="button" className="compact" data-testid="export-open" onClick={actions.openExport}>
        Export / share…
      </button>
    </div>
  );
}
