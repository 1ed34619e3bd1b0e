/** Wire shapes of the whole-store views (Usage, Storage): sessions named by catalog ids, never paths. */

/** Spend of one (day, model, session): the renderer sums these by day, model or project. */
export interface UsageRowDto {
  day: string;
  model: string;
  project: string;
  sessionId: string;
  familyId: string;
  cost: number;
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  unpricedMessages: number;
  activeCost: number;
  otherSessionsCost: number;
  abandonedCost: number;
  /** What copies of these messages in other files would have added to a per-file sum. */
  duplicateCost: number;
  duplicateMessages: number;
}

export interface StorageRowDto {
  sessionId: string;
  project: string;
  familyId: string;
  modifiedAt: string;
  image: number;
  toolOutput: number;
  abandoned: number;
  copied: number;
  rest: number;
  total: number;
}

export interface StoreReportDto {
  state: 'idle' | 'running' | 'done' | 'failed';
  /** Bytes read so far / bytes of every listed session. */
  done: number;
  total: number;
  error?: string;
  usage: UsageRowDto[];
  storage: StorageRowDto[];
  unpricedModels: string[];
  /** When the finished report was computed (ISO). */
  computedAt: string | null;
}

export interface SlimRequestDto {
  sessionId: string;
  dropImages: boolean;
  /** Tool / bash outputs over this many bytes keep their head. */
  maxOutputBytes?: number;
}

export interface SlimPreviewDto {
  bytesBefore: number;
  bytesAfter: number;
  imagesRemoved: number;
  outputsCut: number;
}

export interface SlimResultDto extends SlimPreviewDto {
  /** The new session, listed (null if it could not be listed). */
  sessionId: string | null;
  fileName: string;
}

export interface ArchiveFamilyDto {
  /** The family's oldest session. */
  familyId: string;
  sessionIds: string[];
  bytes: number;
  lastWrite: string;
}

export interface ArchivePreviewDto {
  staleDays: number;
  families: ArchiveFamilyDto[];
  bytes: number;
  /** Display only: where archived families go (outside every root). */
  archiveDir: string;
}

export interface ArchiveResultDto {
  archived: number;
  bytes: number;
  /** Families kept because a member changed since the preview. */
  kept: number;
  /** Display only: each family's folder (restore: `canopy archive --restore FOLDER`). */
  folders: string[];
}
