/**
 * Core data shapes. PURE: no node:*, no electron, no DOM.
 *
 * A session file is read into a `ParsedSession`: the header, every entry in file order (after an
 * in-memory v1/v2 → v3 migration, exactly as pi's SessionManager would do it, never written
 * back), and every problem found, each with its physical line number.
 */

/** Which of pi's two readers' rules to apply (pi-session-format.md §0). */
export type Profile = 'ca' | 'h3';

/** Kinds of problem Canopy reports. Mapping to pi: see ISSUE_KIND_TO_PI in rules/issue-kinds.ts. */
export type IssueKind =
  | 'invalid_json' // line is not JSON (H3: invalid_entry "is not valid JSON"; CA: skipped silently)
  | 'torn_last_line' // last line without newline that is not (yet) valid JSON: a writer may be mid-append
  | 'not_an_object' // JSON null/number/string/boolean/array (H3: invalid_entry)
  | 'missing_type' // H3: invalid_entry "is missing entry type"
  | 'missing_id' // H3: invalid_entry "is missing entry id"
  | 'invalid_parent_id' // H3: invalid_entry "has invalid parentId"
  | 'missing_timestamp' // H3: invalid_entry "is missing timestamp"
  | 'invalid_target_id' // H3: invalid_entry "has invalid targetId" (leaf entries)
  | 'duplicate_id' // later line wins in the id index (CA and H3 agree)
  | 'dangling_parent' // parentId names no entry: entry is treated as a root (CA: orphan; H3 walk: invalid_session)
  | 'cycle' // parentId chain loops: pi hangs; Canopy stops the walk and reports
  | 'missing_leaf_target' // H3 leaf entry points at an unknown id (H3: invalid_session)
  | 'invalid_header' // header problems (H3: invalid_session)
  | 'unsupported_version' // format 4 and unknown versions
  | 'line_too_long' // informational: a line over 1 MiB was read in full
  | 'byte_order_mark' // line 1 starts with a UTF-8 BOM (CA: "not a valid pi session"; H3: invalid_session)
  | 'extra_header' // a later line with type "session": CA ignores it, H3 would load it as an entry
  | 'malformed_entry' // payload shape pi would crash on (e.g. a message entry without `message`)
  | 'too_deep' // a value nested deeper than MAX_DEPTH (json-depth.ts): the deeper parts become a marker
  | 'unknown_leaf' // an explicitly requested leaf id is not in the file
  | 'line_over_limit' // a line over the reader's byte limit: never decoded, left out (pi cannot read it either)
  | 'nul_bytes'; // a run of NUL bytes (a crash's hole) in a line: where it is

export interface Issue {
  /**
   * Physical line number, 1-based (blank lines count; pi's H3 messages do not count them).
   * 0 when the issue is about a request rather than a line (unknown_leaf).
   */
  line: number;
  kind: IssueKind;
  message: string;
}

/** The session header, as found on disk (after in-memory migration for v1/v2). */
export interface SessionHeader {
  type: 'session';
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
  /** Legacy v1/early-v2 name for parentSession; pi ignores it, Canopy shows it as a legacy link. */
  branchedFrom?: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * One entry line. `raw` is the whole JSON object of the line (the migrated object for v1/v2 files),
 * exactly what pi would hold in memory. Envelope fields are copied out for fast access.
 */
export interface Entry {
  id: string;
  /** `null` for a root. The empty string is kept as is (acts as "no parent"). */
  parentId: string | null;
  type: string;
  timestamp: string;
  /** Physical line number in the file (1-based). For migrated v1 files: the original line. */
  line: number;
  raw: Record<string, unknown>;
  /** `message.role` of a `message` entry (filled by parse; optional for lazily indexed entries). */
  role?: string;
  /** `targetId` of `leaf`, `label` and `context_edit` entries (filled by parse). */
  targetId?: string | null;
  /**
   * What an indexed entry (bodies read on demand) knows about its body without reading it.
   * Absent on entries built by parseSession, whose `raw` is already in memory.
   */
  facts?: EntryFacts;
  /**
   * Set when the line fails H3's envelope check (the issue kind it got). pi's CA reader keeps such
   * an entry, so it is in `entries` and in every CA view; H3 views leave it out (pi's H3 refuses
   * the whole file). `parentId`, `type` and `timestamp` are then normalised to their declared types
   * (non-string parentId → null, type/timestamp → ''); `raw` keeps what the line holds.
   */
  strictInvalid?: IssueKind;
}

/** Body facts the hot paths (path walks, profile detection, context state) need for every entry. */
export interface EntryFacts {
  /** `message` entries: `message` is present and not null. */
  hasMessage?: boolean;
  /** `compaction` entries: an own `retainedTail` key exists. */
  hasRetainedTailKey?: boolean;
  /** `compaction` entries: `retainedTail` is truthy (any array, even []). */
  retainedTail?: boolean;
  /** `compaction` entries: `firstKeptEntryId` as written (undefined when absent). */
  firstKeptEntryId?: unknown;
}

export interface ParsedSession {
  header: SessionHeader | null;
  /** Format version as found on disk: 1 (no version), 2, 3; 4 = format 4 (unsupported). */
  format: number | null;
  /** true when the entries were migrated in memory from v1/v2 (ids of a v1 file are generated). */
  migrated: boolean;
  /**
   * Every entry in file order, as pi's CA reader holds them: entries that fail H3's envelope
   * check are here too, marked `strictInvalid` (a profile's reader holds `entriesOf(profile)`).
   * Lines without a usable id, non-object values and second headers are NOT here (see issues).
   */
  entries: Entry[];
  issues: Issue[];
  /** Set when the file cannot be read as a session at all (not a session, format 4, …). */
  fatal?: { code: 'invalid_session' | 'unsupported_format'; message: string };
  /** Physical line of the header (set by parseSession; absent when there is none). */
  headerLine?: number;
  /**
   * The entries a profile's reader holds (CA: every entry; H3: those passing its envelope check),
   * the one way pi's rules read them: over the parsed array (rules/entries.ts) or, for an indexed
   * session, straight from the index engine's columns (engine/store-entries.ts).
   */
  entriesOf(profile: Profile): EntrySource;
}

/** One profile's entries, in file order. Files are append-only: a source grows with its session. */
export interface EntrySource {
  readonly count: number;
  /** The i-th entry (an indexed source creates it on first use, the same object every time). */
  entryAt(i: number): Entry;
  /** Every entry (an indexed source creates the objects not created yet). */
  readonly list: Entry[];
  /** id → entry, the later line winning for duplicate ids (as in both of pi's readers). */
  readonly byId: ReadonlyMap<string, Entry>;
  /** Entries of `type` (never 'message'): labels, the session name and the profile guess read only these. */
  ofType(type: string): readonly Entry[];
  /** `message` entries without a message (pi reports them malformed). */
  readonly messagesWithout: readonly Entry[];
  /** A parent column, when the source keeps one (the index engine): path walks then go by position. */
  readonly parents?: ParentTable;
  /** Every entry's envelope by position, when the source keeps columns (the index engine). */
  readonly columns?: EntryColumns;
}

/**
 * Every entry's envelope by position (file order, duplicates included), for a reader that visits
 * them all (`canopy tree`): an indexed session answers from its columns, with no entry object.
 */
export interface EntryColumns {
  readonly count: number;
  idOf(i: number): string;
  /** parentId as the entry holds it (null: none). */
  parentIdOf(i: number): string | null;
  typeOf(i: number): string;
  lineOf(i: number): number;
  /** As entryRole (rules/entry-fields.ts). */
  roleOf(i: number): string | undefined;
  /** As entryTargetId (rules/entry-fields.ts). */
  targetOf(i: number): string | null | undefined;
  /** pi's sort time of the entry: `new Date(timestamp).getTime()` of the timestamp as written. */
  timeOf(i: number): number;
  /**
   * Copies entry i's id into `into` at `at` when the columns hold it as ASCII bytes and it fits:
   * the end position, else -1 (then read idOf). Absent: ids are strings only.
   */
  copyId?(i: number, into: Uint8Array, at: number): number;
  /** The position of the winner of `id` (the later line of a duplicate id), -1 when no entry has it. */
  find(id: string): number;
  /** True when entry i is its id's winner (the later line of a duplicate id). */
  isWinner(i: number): boolean;
  /** The position of the winner of entry i's parent: -2 no parent (null or ""), -1 not in the file. */
  parentOf(i: number): number;
}

/** Entries by position with each one's parent position: a 400k-entry walk in integer steps. */
export interface ParentTable {
  /** Entries in the table (a walk without a cycle visits at most this many). */
  readonly count: number;
  /** Position of `e` when it is this table's entry and its id's winner; -1 otherwise. */
  positionOf(e: Entry): number;
  entryAt(i: number): Entry;
  typeOf(i: number): string;
  idOf(i: number): string;
  /** The parent column and scratch for one walk (valid until the next call). */
  walkState(): WalkState;
  /** Entry i's parent when the column says -3 (not resolved yet): its position, -2 none, -1 missing. */
  resolveParent(i: number): number;
}

/** What one walk over a parent table uses. */
export interface WalkState {
  /** Parent of each entry: a position, -2 no parent (null or ""), -1 missing, -3 not resolved yet. */
  parents: Int32Array;
  /** Visit marks: `marks[i] === epoch` once entry i was visited by this walk. */
  marks: Uint32Array;
  epoch: number;
  /** Scratch for the visit order (as many slots as entries). */
  order: Int32Array;
}

/** Which string values a reader looks at (json-skim.ts cuts the others short without decoding them). */
export interface SkimKeys {
  /** Keys whose string values are read up to `keep` units (and whether they are blank). */
  prefix: readonly string[];
  keep: number;
  /** Keys whose string values are not read at all. */
  drop: readonly string[];
}

/** Bytes → string. `ascii` promises every byte is < 0x80 (a Latin-1 decode is then exact). */
export type Decode = (b: Uint8Array, start: number, end: number, ascii: boolean) => string;
