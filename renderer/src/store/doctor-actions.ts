import type { ActionContext } from './action-context';
import { backgroundPass } from './background-pass';

export interface DoctorActions {
  openDoctor(): void;
  closeDoctor(): void;
  /** The damage old pi versions left in a session, and the repaired file(s) a repair would write. */
  examineSession(sessionId: string): Promise<void>;
  /** Writes the repaired file(s) next to the session (the source stays as it is). */
  repairSession(sessionId: string): Promise<void>;
  /** Asks main for its pass over the store (`refresh`: examined again). */
  loadDoctorStore(refresh?: boolean): Promise<void>;
  /**
   * While the store view shows the pass: asked now, followed (doctor.progress), asked again when
   * it ends. Returns the stop.
   */
  followDoctorStore(): () => void;
}

export function createDoctorActions(ctx: ActionContext): DoctorActions {
  const { api, s, check } = ctx;
  const pass = backgroundPass(ctx, 'doctor.store', 'doctor.progress', {
    data: (report) => s().setDoctorStore(report),
    error: (message) => s().setDoctorStoreError(message),
    progress: (done, total) => s().setDoctorStoreProgress(done, total),
  });
  return {
    openDoctor: () => s().setDoctorOpen(true),
    closeDoctor: () => s().setDoctorOpen(false),
    async examineSession(sessionId) {
      s().setDoctorReport(sessionId, { report: null, error: null });
      const r = check(await api['doctor.examine']({ sessionId }));
      s().setDoctorReport(sessionId, 'data' in r ? { report: r.data } : { error: r.error.message });
    },
    async repairSession(sessionId) {
      s().setDoctorReport(sessionId, { busy: true, error: null });
      const r = check(await api['doctor.repair']({ sessionId }));
      s().setDoctorReport(
        sessionId,
        'data' in r ? { busy: false, report: r.data } : { busy: false, error: r.error.message },
      );
    },
    loadDoctorStore: pass.load,
    followDoctorStore: pass.follow,
  };
}
