/**
 * The shapes of one session's row in the listing and of a problem in its file, which the listing
 * (dto.ts) and the context view (context-dto.ts) both name. Imports nothing: the floor of shared.
 */

export type ProfileDto = 'ca' | 'h3';

export interface IssueDto {
  line: number;
  kind: string;
  message: string;
}

/** Issue kinds that say something about a file without anything being wrong with it (a long line
 * of a screenshot, read in full): the app lists them as notes, not as warnings. */
const NOTE_KINDS: ReadonlySet<string> = new Set(['line_too_long']);
export function isNoteIssue(issue: IssueDto): boolean {
  return NOTE_KINDS.has(issue.kind);
}

export interface SessionRowDto {
  sessionId: string;
  cwd: string;
  createdAt: string;
  /** File mtime (ISO). */
  modifiedAt: string;
  sizeBytes: number;
  fileName: string;
  /** Display only. */
  path: string;
  /** The `sessionId` of the parent session when it is in the catalog. */
  parentSessionId: string | null;
  /** Display only: the header's parentSession (or legacy branchedFrom). */
  parentSessionPath: string | null;
  /** Filled in the background (null until summarised). */
  summary: SessionSummaryDto | null;
  /** Set when the file lies outside the roots: opened by the user, or uploaded (a read-only copy). */
  origin?: 'opened' | 'uploaded';
}

export interface SessionSummaryDto {
  name: string | null;
  firstMessage: string | null;
  /** The first user message written after the header (a fork's own, not one copied from its parent). */
  ownFirstMessage?: string | null;
  /** A fork's branch point: the last user message copied from its parent. */
  branchedAfter?: string;
  entryCount: number;
  messageCount: number;
  /** Latest user/assistant activity (ISO), else the header time. */
  lastActivity: string | null;
  /** Damaged lines and header problems the summary pass saw (0: none seen; opening lists every issue). */
  issueCount: number;
}
