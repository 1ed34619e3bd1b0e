/**
 * Plain JSON shapes for "what reaches the model", fork previews/results and session lineage.
 * Entries are named by id; paths appear only as display strings.
 */
import type { IssueDto, ProfileDto } from './dto';

/** Why an entry is or is not part of the model's context at the chosen leaf. */
export type EntryStateDto = 'included' | 'summarised' | 'other-branch' | 'not-projected' | 'edited' | 'excluded';

export interface EntryContextStateDto {
  id: string;
  line: number;
  state: EntryStateDto;
  /** A few words; ids are in `by` / `targetId`. */
  reason: string;
  /** The compaction that summarised it, or the context_edit that edited it (older compaction: the newest one). */
  by?: string;
  /** context_edit records: the entry they edit. */
  targetId?: string;
}

export interface ContextMessageDto {
  index: number;
  /** The context entry that produced it (H3: the compaction for a retainedTail message). */
  entryId: string;
  /** Projected role: user, assistant, toolResult, system, custom, bashExecution, branchSummary, compactionSummary… */
  role: string;
  /** Role after pi's convertToLlm. */
  sentAs: 'user' | 'assistant' | 'toolResult' | 'system';
  preview: string;
  /** pi's chars/4 estimate (images: 1200). */
  tokens: number;
  /** H3 retainedTail: the path entry this message is a copy of. */
  copyOf?: string;
}

export interface SourcedDto<T> {
  value: T;
  /** The entry that set it; null = pi's default. */
  entryId: string | null;
}

export interface SourcedTextDto {
  text: string;
  entryId: string;
}

export interface SystemStateDto {
  prompt: string;
  promptParts: SourcedTextDto[];
  sections: { name: string; text: string; entryId: string }[];
  tools: { name: string; entryId: string }[];
  removedTools: { name: string; entryId: string }[];
  entryIds: string[];
  tokens: number;
}

export interface DerivedStateDto {
  model: SourcedDto<{ provider: string | null; modelId: string | null } | null>;
  thinkingLevel: SourcedDto<string | null>;
  /** H3 only. */
  activeTools: SourcedDto<string[] | null>;
  /** CA only: system prompt and tools replayed from the context's system messages. */
  system: SystemStateDto | null;
}

export interface CostLedgerDto {
  records: { assistant: number; toolResult: number; compaction: number; branchSummary: number; usage: number };
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cachedTokens: number;
  uncachedTokens: number;
  costTotal: number;
}

export interface LastUsageDto {
  entryId: string;
  messageIndex: number;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  totalTokens: number | null;
  costTotal: number | null;
  contextTokens: number;
}

export interface ContextTokensDto {
  tokens: number;
  method: 'usage' | 'estimate';
  usageTokens: number;
  trailingTokens: number;
}

export interface CompactionInfoDto {
  id: string;
  line: number;
  active: boolean;
  state: EntryStateDto;
  summary: string;
  tokensBefore: number | null;
  firstKeptEntryId: string | null;
  firstKeptOnPath: boolean;
  retainedTailCount: number | null;
  hasSystemMessage: boolean;
  readFiles: string[];
  modifiedFiles: string[];
  /** Entries it summarised that the model does not see. */
  hiddenIds: string[];
}

export interface ContextViewDto {
  sessionId: string;
  profile: ProfileDto;
  detectedProfile: ProfileDto;
  leafId: string | null;
  /** The entries pi's selection took, in pi's order (the core's contextEntryIds). */
  contextEntryIds: string[];
  /** Every entry of the file, in file order. */
  entries: EntryContextStateDto[];
  counts: Record<EntryStateDto, number>;
  /** What the model receives, in order. */
  messages: ContextMessageDto[];
  /** Estimate over `messages` (CA: replayed system message counted once). */
  tokens: { total: number; messages: number; system: number };
  /** The context size pi itself would report (usage-based when pi trusts the last usage). */
  contextTokens: ContextTokensDto;
  state: DerivedStateDto;
  lastUsage: LastUsageDto | null;
  /** activePath: the leaf's full ancestor chain; allBranches: every entry of the file. */
  cost: { activePath: CostLedgerDto; allBranches: CostLedgerDto };
  compactions: CompactionInfoDto[];
  issues: IssueDto[];
}

export type ForkRequestDto =
  | { kind: 'fork'; entryId: string; position: 'before' | 'at' }
  | { kind: 'clone'; leafId?: string | null };

export type ForkRefusalKind = 'invalid_fork_target' | 'not_found' | 'nothing_to_clone' | 'invalid_session' | 'read_only';

export type ForkPreviewDto =
  | {
      ok: true;
      profile: ProfileDto;
      /** pi's naming; the time and id are drawn again when the fork is made. */
      fileName: string;
      /** Display only: the source file's directory, where the new file goes. */
      directory: string;
      entryCount: number;
      /** Entries with fresh ids (CA re-creates the labels of copied entries). */
      newEntryCount: number;
      leafId: string | null;
      /** The leaf is a fresh entry (a re-created label): its id is drawn again when the fork is made. */
      leafIsNew: boolean;
      /** The new file's context, read under the same profile. */
      context: { messageCount: number; tokens: number };
    }
  | { ok: false; error: { kind: ForkRefusalKind; message: string } };

export interface ForkResultDto {
  sessionId: string;
  /** Display only. */
  path: string;
  command: string;
  entryCount: number;
  leafId: string | null;
}

export interface LineageLinkDto {
  sessionId: string;
  fileName: string;
  createdAt: string;
  /** Last entry of the child's copied path that the parent holds (same id in both files); null when none. */
  forkPointEntryId: string | null;
}

export interface LineageDto {
  sessionId: string;
  parent: LineageLinkDto | null;
  /** Display only: the header's parentSession when no listed session has that path. */
  missingParentPath: string | null;
  children: LineageLinkDto[];
}
