/**
 * Plain JSON shapes for "what reaches the model", fork previews/results and session lineage.
 * Entries are named by id; paths appear only as display strings.
 */
import type {
  CompactionInfo,
  ContextMessageInfo,
  ContextTokens,
  ContextView,
  CostLedger,
  DerivedState,
  EntryState,
  EntryStateInfo,
  LastUsage,
  Sourced,
  SystemState,
} from '../core/rules/context-view';
import type { ForkErrorKind } from '../core/rules/fork';
import type { ForkPreview } from '../core/rules/fork-preview';
import type { SourcedText } from '../core/rules/system-replay';
import type { IssueDto, ProfileDto } from './dto';
import type { EntryStatesDto } from './entry-states';

export type { EntryStatesDto } from './entry-states';

// The view the core builds is already plain JSON: it crosses the boundary as is (but for the entry
// states, packed as columns), so its shapes are declared once, in the core, and named here as the
// renderer knows them.

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
}

export type ForkRequestDto =
  | { kind: 'fork'; entryId: string; position: 'before' | 'at' }
  | { kind: 'clone'; leafId?: string | null };

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
