/** The doctor wing: finds the damage old pi versions left in session files and plans (or writes) repaired copies. */
export { examineSession, type DoctorOptions, type DoctorRepair, type DoctorReport } from './service';
export { explain, PI_WORDS, type Mark, type MarkKind } from './rules/marks';
export { AppDoctor, type AppDoctorDeps } from './app-doctor';
