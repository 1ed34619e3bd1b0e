/** The open session's Doctor button. */
import { useActions, useCanopy } from '../../app-context';

export function DoctorButton() {
  const actions = useActions();
  const sessionId = useCanopy((s) => s.openSessionId);
  if (!sessionId) return null;
  return (
    <div className="doctor-bar">
      <button type="button" className="compact" data-testid="doctor-open" onClick={actions.openDoctor}>
        Doctor…
      </button>
    </div>
  );
}
