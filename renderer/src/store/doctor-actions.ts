import type { DoctorReportDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

export interface DoctorActions {
  /** The damage old pi versions left in a session, and the repaired file(s) a repair would write. */
  doctorExamine(sessionId: string): Promise<Outcome<DoctorReportDto>>;
  /** Writes the repaired file(s) next to the session (the source stays as it is). */
  doctorRepair(sessionId: string): Promise<Outcome<DoctorReportDto>>;
}

export function createDoctorActions({ api, check }: ActionContext): DoctorActions {
  return {
    doctorExamine: async (sessionId) => check(await api['doctor.examine']({ sessionId })),
    doctorRepair: async (sessionId) => check(await api['doctor.repair']({ sessionId })),
  };
}
