/** Wire shapes of the whole-store views (Usage, Storage): sessions named by catalog ids, never paths. */

/** Spend of one (day, provider, model, session): the renderer sums these by day, model or project. */
export interface UsageRowDto {
  day: string;
  /** pi's breakdown key is `provider/model`; tool and summary usage is provider "Tools", model "summaries". */
  provider: string;
  /** The concrete model (`responseModel ?? model`). */
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
  /** Part of cacheWrite (1 h retention) and of output (reasoning): never added again. */
  cacheWrite1h: number;
  reasoning: number;
  /** Part of cost the provider billed; the rest is estimated from model prices. */
  billedCost: number;
  unpricedMessages: number;
  activeCost: number;
  otherSessionsCost: number;
  abandonedCost: number;
  /** What copies of these messages in other files would have added to a per-file sum. */
  duplicateCost: number;
  duplicateMessages: number;
}

export interface UsageProblemDto {
  sessionId: string;
  line: number | null;
  entryId: string;
  message: string;
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
  /** Usage records not counted (values pi's Usage type does not allow) or without a real date. */
  usageProblems: UsageProblemDto[];
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
