/** Wire shapes of the secret radar and exports (the contract's `secrets.*`, `export.*`, `redactions.*`). */

export interface SecretsStatusDto {
  scanning: boolean;
  done: number;
  total: number;
  /** Sessions with at least one finding so far. */
  withFindings: number;
  /** Why the radar is off (its cache folder cannot be used), else null. */
  error: string | null;
}

/** One finding: where, which rule, and the value masked (the value itself only via secrets.reveal). */
export interface SecretFindingDto {
  entryId: string;
  line: number;
  rule: string;
  pointer: string;
  masked: string;
}

export interface SessionSecretsDto {
  sessionId: string;
  /** False until the background scan reached this session. */
  scanned: boolean;
  findings: SecretFindingDto[];
}

export type ExportFormatDto = 'html' | 'md' | 'jsonl';

export interface ExportRequestDto {
  sessionId: string;
  format: ExportFormatDto;
  /** The exported path's leaf; absent: the session's current leaf. */
  leafId?: string;
  /** Every entry instead of one path. */
  all?: boolean;
  redact: boolean;
}

/** What an export would hold: every replacement (masked), before anything is written. */
export interface ExportPreviewDto {
  suggestedName: string;
  leafId: string | null;
  bytes: number;
  replacements: Array<{ entryId: string; pointer: string; rule: string; masked: string }>;
}

/** A written export: where (Electron's save dialog), or its text to download (serve). */
export interface ExportWriteDto {
  /** The written file (display only); null when cancelled or when `content` is to be downloaded. */
  writtenTo: string | null;
  fileName: string;
  /** serve: the file's text, for the browser to save. */
  content: string | null;
  replacements: number;
}

export interface LedgerEntryDto {
  time: string;
  sessionId: string;
  leafId: string | null;
  scope: 'branch' | 'all';
  format: ExportFormatDto;
  redacted: boolean;
  replacements: number;
  /** Display only: the written file, `-` (standard output) or `download`. */
  writtenTo: string;
}

/** The user's own redactions: literal strings and regular expressions (`/…/flags` or a bare pattern). */
export interface RedactionsDto {
  literals: string[];
  regexes: string[];
}
