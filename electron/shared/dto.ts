/**
 * Plain JSON shapes that cross the main ↔ renderer boundary. No Maps, no classes, no paths that the
 * renderer could send back: sessions are named by `sessionId`, entries by `entryId`. (Paths appear
 * only as display strings, e.g. for the `pi --session <path>` command the user copies.)
 */

import type { EntryPreview } from '../core/entry-preview';

export * from './context-dto';

export type ProfileDto = 'ca' | 'h3';

export interface AppInfo {
  version: string;
  transport: 'electron' | 'http';
  /** Display strings of the session roots being browsed. */
  roots: string[];
  /** True when no pi sessions were found and the bundled demo sessions are shown instead. */
  demo: boolean;
}

export interface IssueDto {
  line: number;
  kind: string;
  message: string;
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
}

export interface SessionSummaryDto {
  name: string | null;
  firstMessage: string | null;
  entryCount: number;
  messageCount: number;
  /** Latest user/assistant activity (ISO), else the header time. */
  lastActivity: string | null;
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

export type { CheckpointKind } from '../core/entry-preview';
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
}
