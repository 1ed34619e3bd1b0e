/** What comparing two branches gives (core builds it; the CLI prints it; the compare view draws it). */
import type { CostLedger } from './context-dto';
import type { EntryPreview, ProfileDto } from './dto';

/** One entry of a turn: its id and what a row needs to show it. */
export interface CompareEntryDto extends EntryPreview {
  id: string;
  type: string;
}

/** A user message and what followed it (the first turn of a side may start without one). */
export interface CompareTurnDto {
  /** The user message's whole text; null for the entries before a side's first user message. */
  prompt: string | null;
  entries: CompareEntryDto[];
}

/** One row of the side-by-side view: a turn of A, of B, or of both when both asked the same thing. */
export interface CompareRowDto {
  /** Index into side A's / B's turns; null when that side has no turn in this row. */
  a: number | null;
  b: number | null;
  /** Both sides asked the same thing here. */
  samePrompt: boolean;
  /** Not the same on both sides (another prompt, one side only, or the same prompt answered otherwise). */
  divergent: boolean;
}

export interface CompareFileDto {
  /** The tool call's path, relative to the session's cwd when under it. */
  path: string;
  /** Unified diff (jsdiff) from the ancestor's state of the file to this side's. */
  diff: string;
  added: number;
  removed: number;
  /** False when the ancestor's text is known only in excerpts (or not at all): see `notes`. */
  beforeWhole: boolean;
  notes: string[];
}

/** Side A's text of a file against side B's (both known whole), for a file either side changed. */
export interface CompareVersusDto {
  path: string;
  /** Unified diff from A's text to B's; '' when they are the same. */
  diff: string;
  added: number;
  removed: number;
  same: boolean;
  notes: string[];
}

export interface CompareStatsDto {
  entries: number;
  messages: number;
  toolCalls: number;
  /** Failed tool results and assistant messages that ended in an error or were aborted. */
  errors: number;
  usage: CostLedger;
  modelChanges: { entryId: string; model: string }[];
  thinkingChanges: { entryId: string; level: string }[];
  compactions: string[];
}

export interface CompareSideDto {
  sessionId?: string;
  leafId: string;
  profile: ProfileDto;
  /** The path after the common ancestor, in order, up to and including the leaf. */
  entryIds: string[];
  turns: CompareTurnDto[];
  stats: CompareStatsDto;
  /** Σ cost.total of the side's entries (pi's usage records), USD. */
  cost: number;
  files: CompareFileDto[];
  /** Shell commands on the side: they may have changed files the edit/write calls do not show. */
  shell: { entryId: string; command: string }[];
}

export interface CompareDto {
  /** The deepest entry on both leaf-to-root paths; null when they share none. */
  ancestorId: string | null;
  ancestor: CompareEntryDto | null;
  sides: [CompareSideDto, CompareSideDto];
  rows: CompareRowDto[];
  /** Index of the first divergent row; null when no row diverges. */
  firstDivergence: number | null;
  /** Side A against side B, per file either changed and both know whole (sorted by path). */
  versus: CompareVersusDto[];
}
