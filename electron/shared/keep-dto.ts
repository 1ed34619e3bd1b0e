/** What Canopy keeps about a session beside pi's file (its own data folder, keyed by session id). */
export interface KeepRecordDto {
  /** Canopy's name for the session (pi's own `session_info` name stays in the file, shown beside it). */
  name?: string;
  tags?: string[];
  pinned?: boolean;
  note?: string;
  /** ISO time of the last change. */
  updatedAt: string;
}

/** A change to a record: a field given replaces it; null (or an empty value) clears it. */
export interface KeepPatchDto {
  name?: string | null;
  tags?: string[];
  pinned?: boolean;
  note?: string | null;
}

/** One file Canopy moved to the OS trash. */
export interface TrashedFileDto {
  sessionId: string;
  /** Where it was (restored there). */
  path: string;
  /** Where the trash put it, when the OS trash is one Canopy can read (freedesktop); else null. */
  trashedAs: string | null;
}

/** One trashing: a session, and its forks when asked. */
export interface TrashRecordDto {
  id: string;
  trashedAt: string;
  files: TrashedFileDto[];
  /** Set once restored. */
  restoredAt?: string;
}

/** What a trashing would move: the session and (family) its forks, with their sizes. */
export interface TrashPreviewDto {
  sessionId: string;
  files: Array<{ sessionId: string; path: string; sizeBytes: number; fork: boolean }>;
  /** Files whose session Canopy did not find in the roots (read-only copies): not trashable. */
  refused: string | null;
}

/** `keep.changed`: what changed, so the list patches itself without a refetch. */
export interface KeepChangedDto {
  sessionId: string;
  /** null: the record was cleared. */
  record: KeepRecordDto | null;
}

/** session.continue's answer. */
export interface ContinueResultDto {
  /** The POSIX shell line that does it (what serve copies). */
  command: string;
  /** The folder pi runs in. */
  cwd: string;
  /** The session's own folder is gone: nothing launched unless `fork` was asked. */
  cwdMissing: boolean;
  fork: boolean;
  /** A terminal was started (the app); false in serve or when the folder is missing. */
  launched: boolean;
  terminal: string | null;
}
