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
  /** Why nothing may be written next to this session (an uploaded copy): the repair is not offered. */
  readOnly?: string;
}

/** One session of the store with damage (doctor.store). */
export interface DoctorStoreRowDto {
  sessionId: string;
  fileName: string;
  /** The kinds of its marks, each once, in line order. */
  kinds: string[];
  marks: number;
  /** Repaired files a repair would write (0: nothing pi 1.6.0 reads is wrong). */
  files: number;
  /** Why nothing may be written next to it (demo sessions): the repair is not offered. */
  readOnly?: string;
}

/** The doctor's pass over every listed session, as far as it got (progress: `doctor.progress`). */
export interface DoctorStoreDto {
  state: 'idle' | 'running' | 'done' | 'failed';
  /** Sessions examined, and listed. */
  done: number;
  total: number;
  /** The damaged sessions only. */
  sessions: DoctorStoreRowDto[];
  /** Sessions it could not read, with why. */
  problems: { sessionId: string; message: string }[];
  error?: string;
}
