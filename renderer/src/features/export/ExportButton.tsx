/** The open session's Share button (its menu entry for exports). */
import { useCanopy } from '../../app-context';
import { openExportDialog } from './export-state';

export function ExportButton() {
  const sessionId = useCanopy((s) => s.openSessionId);
  if (!sessionId) return null;
  return (
    <div className="export-bar">
      <button type="button" className="compact" data-testid="export-open" onClick={openExportDialog}>
        Export / share…
      </button>
    </div>
  );
}
