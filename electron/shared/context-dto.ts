/**
 * Plain JSON shapes for "what reaches the model", fork previews/results and session lineage.
 * Entries are named by id; paths appear only as display strings.
 */
import type { IssueDto, ProfileDto, SessionRowDto } from './session-dto';
import type { EntryState, EntryStateInfo, EntryStatesDto } from './entry-states';

export type { EntryState, EntryStateInfo, EntryStatesDto } from './entry-states';

// The view the core builds is plain JSON and crosses the boundary as is (but for the entry states,
// packed as columns): its shapes are declared here, on the floor, and core builds them (it imports
// these types, never a value of shared). The Dto names are those the renderer knows them by.

export interface ContextMessageInfo {
  index: number;
  /** The context entry that produced it (H3: the compaction, for a retainedTail message). */
  entryId: string;
  /** The projected role (user, assistant, toolResult, system, custom, bashExecution, branchSummary, compactionSummary, …). */
  role: string;
  /** The role after pi's convertToLlm. */
  sentAs: 'user' | 'assistant' | 'toolResult' | 'system';
  preview: string;
  /** pi's chars/4 estimate of this message (images: 1200). */
  tokens: number;
  /** H3 retainedTail: the entry on the path whose message this is a copy of. */
  copyOf?: string;
}

export interface Sourced<T> {
  value: T;
  /** The entry that set it; null for pi's default. */
  entryId: string | null;
}

export interface DerivedState {
  model: Sourced<{ provider: string | null; modelId: string | null } | null>;
  thinkingLevel: Sourced<string | null>;
  /** H3 only (CA: always null / no entry). */
  activeTools: Sourced<string[] | null>;
  /** CA only: the system prompt and tools replayed from the context's system messages. */
  system: SystemState | null;
}

export interface ContextView {
  profile: ProfileDto;
  leafId: string | null;
  /** The entries pi's selection took, in pi's order (readSession().contextEntryIds). */
  contextEntryIds: string[];
  /** Every entry of the file, in file order. */
  entries: EntryStateInfo[];
  counts: Record<EntryState, number>;
  /** What the model receives, in order. */
  messages: ContextMessageInfo[];
  /**
   * Estimate over `messages`: CA counts the replayed system message once (`system`) plus every
   * other message (`messages`), as pi's estimateProjectedContextTokens does; H3 sends no system messages.
   */
  tokens: { total: number; messages: number; system: number };
  /** The context size pi itself would report for this context (usage-based when pi trusts it). */
  contextTokens: ContextTokens;
  state: DerivedState;
  lastUsage: LastUsage | null;
  /** activePath: entries on the leaf's full ancestor chain; allBranches: every entry of the file. */
  cost: { activePath: CostLedger; allBranches: CostLedger };
  /** Compactions on the leaf's full ancestor chain, root-most first. */
  compactions: CompactionInfo[];
}

export interface SourcedText {
  text: string;
  entryId: string;
}

export interface SystemSection {
  name: string;
  text: string;
  entryId: string;
}

export interface SourcedTool {
  name: string;
  entryId: string;
}

export interface SystemState {
  /** The replayed base prompt + later instructions (pi's `content.join("\n\n")`). */
  prompt: string;
  /** Each non-empty content part and the entry whose system message added it. */
  promptParts: SourcedText[];
  sections: SystemSection[];
  /** Tools available at the end of the context, with the entry that (last) added each. */
  tools: SourcedTool[];
  /** Tools removed along the way and not added again, with the entry that removed each. */
  removedTools: SourcedTool[];
  /** Every entry that contributed a system message, in context order. */
  entryIds: string[];
  /** estimateTokens of the replayed message (what pi counts once for all system messages). */
  tokens: number;
}

export type UsageSource = 'assistant' | 'toolResult' | 'compaction' | 'branchSummary' | 'usage';

export interface CostLedger {
  /** Usage records counted, by where they were found. */
  records: Record<UsageSource, number>;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** input + output + cacheRead + cacheWrite */
  totalTokens: number;
  /** cacheRead (getSessionStats' cachedTokens) */
  cachedTokens: number;
  /** input + cacheWrite (getSessionStats' uncachedTokens) */
  uncachedTokens: number;
  costTotal: number;
}

export interface LastUsage {
  /** The entry whose message carries it (H3: a compaction when the message is a retainedTail copy). */
  entryId: string;
  /** Index in the projected message list. */
  messageIndex: number;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  totalTokens: number | null;
  costTotal: number | null;
  /** pi's calculateContextTokens of it. */
  contextTokens: number;
}

export interface ContextTokens {
  tokens: number;
  /** 'usage': last valid usage + estimate of later messages; 'estimate': chars/4 over the context. */
  method: 'usage' | 'estimate';
  usageTokens: number;
  trailingTokens: number;
}

export interface CompactionInfo {
  id: string;
  line: number;
  /** Its summary opens the current context (the newest compaction, when it is in the context). */
  active: boolean;
  /** Its own state in the view (an older one may be summarised or not projected). */
  state: EntryState;
  summary: string;
  tokensBefore: number | null;
  firstKeptEntryId: string | null;
  firstKeptOnPath: boolean;
  /** Number of retainedTail messages; null when it has no retainedTail (CA ignores them). */
  retainedTailCount: number | null;
  /** CA 1.6.0: it carries the replayed system prompt. */
  hasSystemMessage: boolean;
  readFiles: string[];
  modifiedFiles: string[];
  /** Entries it summarised that the model does not see. */
  hiddenIds: string[];
}

export type ForkErrorKind = 'invalid_fork_target' | 'not_found' | 'nothing_to_clone' | 'invalid_session';

export type ForkPreview =
  | {
      ok: true;
      profile: ProfileDto;
      /** pi's naming, from the env's id and time (the catalog reserves them for the fork: repo/fork-reservations.ts). */
      fileName: string;
      entryCount: number;
      /** Entries whose id the source does not hold (CA's re-created labels). */
      newEntryCount: number;
      leafId: string | null;
      /** The leaf is a fresh entry (a re-created label): its id is drawn again when the fork is made. */
      leafIsNew: boolean;
      /** The new file's context, read under the same profile. */
      context: { messageCount: number; tokens: number };
    }
  | { ok: false; error: { kind: ForkErrorKind; message: string } };

export type EntryStateDto = EntryState;
export type EntryContextStateDto = EntryStateInfo;
export type ContextMessageDto = ContextMessageInfo;
export type SourcedDto<T> = Sourced<T>;
export type SourcedTextDto = SourcedText;
export type SystemStateDto = SystemState;
export type DerivedStateDto = DerivedState;
export type CostLedgerDto = CostLedger;
export type LastUsageDto = LastUsage;
export type ContextTokensDto = ContextTokens;
export type CompactionInfoDto = CompactionInfo;

export interface ContextViewDto extends Omit<ContextView, 'entries'> {
  /** Every entry of the file, in file order, packed (entry-states.ts: entryStateAt). */
  entries: EntryStatesDto;
  sessionId: string;
  detectedProfile: ProfileDto;
  issues: IssueDto[];
  /** The last live change (session.contextChanged seq) this view includes; later deltas apply to it. */
  liveSeq?: number;
}

export type ForkRequestDto =
  { kind: 'fork'; entryId: string; position: 'before' | 'at' } | { kind: 'clone'; leafId?: string | null };

/** pi's refusals, and Canopy's own: demo sessions are read-only. */
export type ForkRefusalKind = ForkErrorKind | 'read_only';

export type ForkPreviewDto =
  | (Extract<ForkPreview, { ok: true }> & {
      /** Display only: the source file's directory, where the new file goes. */
      directory: string;
    })
  | { ok: false; error: { kind: ForkRefusalKind; message: string } };

export interface ForkResultDto {
  sessionId: string;
  /** Display only. */
  path: string;
  command: string;
  entryCount: number;
  leafId: string | null;
  /** The new session's row in the listing (the renderer adds it without listing again); null if it cannot be listed. */
  row?: SessionRowDto | null;
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
