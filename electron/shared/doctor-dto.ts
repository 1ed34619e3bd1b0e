/** The doctor's answers on the wire (doctor.examine, doctor.repair): marks and new files by name, never paths. */

export interface DoctorMarkDto {
  kind: string;
  /** 1-based line in the session file. */
  line: number;
  entryId?: string;
  found: string;
  /** What the repaired file does about it; null: nothing (said why in `found`). */
  repair: string | null;
  /** The pi versions that wrote this damage, the issue, and pi's changelog words. */
  versions: string;
  issue: string;
  words: string;
}

export interface DoctorFileDto {
  /** Which session of the file it holds (0-based) and that session's header line. */
  part: number;
  headerLine: number;
  fileName: string;
  lines: number;
  /** After doctor.repair: the new session, listed (null if it could not be listed). */
  sessionId?: string | null;
}

export interface DoctorReportDto {
  /** The session file's name. */
  fileName: string;
  sessions: number;
  writer: string[];
  marks: DoctorMarkDto[];
  skipped: { line: number; reason: string }[];
  /** The repaired files: planned (doctor.examine) or written (doctor.repair). */
  files: DoctorFileDto[];
  written: boolean;
  refused?: string;
}
