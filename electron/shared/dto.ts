/**
 * Plain JSON shapes that cross the main ↔ renderer boundary. No Maps, no classes, no paths that the
 * renderer could send back: sessions are named by `sessionId`, entries by `entryId`. (Paths appear
 * only as display strings, e.g. for the `pi --session <path>` command the user copies.)
 */

import type { IssueDto, ProfileDto, SessionRowDto } from './session-dto';

export * from './session-dto';
export * from './context-dto';

export interface AppInfo {
  version: string;
  transport: 'electron' | 'http';
  /** Display strings of the session roots being browsed. */
  roots: string[];
  /** True when no pi sessions were found and the bundled demo sessions are shown instead. */
  demo: boolean;
  /** A line for each root that gives nothing (missing, or without session files). */
  rootNotes?: string[];
}

export interface ProjectDto {
  cwd: string;
  sessionCount: number;
  lastActivity: string;
}

export interface SkippedDto {
  path: string;
  error: { code: string; message: string };
}

export interface SessionListDto {
  projects: ProjectDto[];
  sessions: SessionRowDto[];
  skipped: SkippedDto[];
}

/**
 * What one change of the store did to the listing (sessions.changed): the rows added and changed
 * (whole), the ids removed, and the projects and skipped files after it. Applied to the listing it
 * gives what sessions.list answers next.
 */
export interface SessionsChangeDto {
  added: SessionRowDto[];
  changed: SessionRowDto[];
  removed: string[];
  projects: ProjectDto[];
  skipped: SkippedDto[];
}

export type CheckpointKind = 'retained-tail' | 'first-kept' | 'none';

export interface EntryPreview {
  /** One short line of text (first user/assistant text, tool summary, summary text…). */
  preview: string;
  role?: string;
  toolNames?: string[];
  /** assistant: at least one non-empty text block (pi's /tree hides tool-call-only assistant messages). */
  hasText?: boolean;
  isError?: boolean;
  stopReason?: string;
  customType?: string;
  /** leaf / label / context_edit targets. */
  targetId?: string | null;
  /** compactions */
  checkpoint?: CheckpointKind;
  firstKeptEntryId?: string;
  tokensBefore?: number;
  model?: string;
}

/** A node's preview and flags (what an entry's body gives the graph). */
export type EntryPreviewDto = EntryPreview;

/** One node of the entry graph: envelope + what a node needs to draw itself (the core's preview). No bodies. */
export interface EntryNodeDto extends EntryPreview {
  id: string;
  parentId: string | null;
  type: string;
  line: number;
  timestamp: string;
}

export interface SessionGraphDto {
  sessionId: string;
  cwd: string;
  path: string;
  header: Record<string, unknown>;
  profile: ProfileDto;
  detectedProfile: ProfileDto;
  entries: EntryNodeDto[];
  leafId: string | null;
  pathIds: string[];
  contextEntryIds: string[];
  labels: Record<string, string>;
  sessionName: string | null;
  issues: IssueDto[];
  sizeBytes: number;
  /** The last live change (session.appended seq) this answer includes; later deltas apply to it. */
  liveSeq?: number;
  /**
   * The nodes carry only what the index knows (type, role, targets, checkpoints; empty previews):
   * previews come from session.previews, the flags pi's /tree filters need from session.flags.
   */
  pending?: true;
}

export interface EntryDetailDto {
  sessionId: string;
  entryId: string;
  line: number;
  /** The entry's JSON object as pi holds it in memory. */
  raw: Record<string, unknown>;
  label: string | null;
  children: string[];
  /** A heavy line's payloads: `raw` is then its cut (image data "", long texts shortened), see entry.payload. */
  payloads?: PayloadDto[];
}

/** One heavy string of an entry, cut from entry.get's `raw` and read with entry.payload. */
export interface PayloadDto {
  /** JSON pointer of the string in `raw`, e.g. "/message/content/1/data". */
  id: string;
  kind: 'image' | 'text';
  mimeType?: string;
  /** Estimated decoded size (bytes). */
  sizeBytes: number;
  /** Bytes of the string's JSON content in the file (entry.payload offsets count these). */
  totalBytes: number;
  /** Text: bytes of it kept in `raw` (the first page starts there); images: 0. */
  keptBytes: number;
  /** Text: UTF-16 units of the cut string that are its start (a marker follows them). */
  keptChars: number;
}

/** A slice of a payload: text decoded, or base64 characters of an image (concatenate for a data: URL). */
export interface PayloadPageDto {
  payloadId: string;
  /** Byte range of the payload's content this answer holds: [offset, next). */
  offset: number;
  next: number;
  totalBytes: number;
  text: string;
}

/** One search hit: an entry of a listed session (entryId null: the session's own id, name or cwd matched). */
export interface SearchHitDto {
  sessionId: string;
  entryId: string | null;
  /** Physical line in the file (1 for a session hit). */
  line: number;
  role: string;
  field: 'text' | 'thinking' | 'session';
  /** Entry time (ISO), when the line has one. */
  time: string | null;
  snippet: string;
  /** The match within `snippet` ([start, end) in UTF-16 units). */
  match: [number, number];
  sessionName: string | null;
  cwd: string;
  fileName: string;
}

/** The search index's state: how far building it got. */
export interface SearchStatusDto {
  indexing: boolean;
  done: number;
  total: number;
  /** Display only: where the index file is. */
  indexPath: string | null;
  /** Lines skipped as damaged so far. */
  problems: number;
  error: string | null;
}

export interface SearchResultDto {
  hits: SearchHitDto[];
  /** Pass it back (with the same query) for the next page; null: every hit was returned. */
  cursor: string | null;
  /** Why the query stopped before its page was full (a newer search cancelled it, a regex ran too long), or null. */
  stopped: string | null;
  status: SearchStatusDto;
}
