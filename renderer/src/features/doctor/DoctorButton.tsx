/** The open session's Doctor button. */
import { useCanopy } from '../../app-context';
import { openDoctorDialog } from './doctor-state';

export function DoctorButton() {
  const sessionId = useCanopy((s) => s.openSessionId);
  if (!sessionId) return null;
  return (
    <div className="doctor-bar">
      <button type="button" className="compact" data-testid="doctor-open" onClick={openDoctorDialog}>
        Doctor…
      </button>
    </div>
  );
}
