/**
 * What the index stores of a session file's complete lines, worked out apart from the database:
 * its header, its entry rows grouped in blocks with their text, its problems and what it says of
 * itself (name, last id, leaf). The indexer writes it as it comes (indexer.ts); a first build's
 * worker thread parses whole files ahead of the indexer (parse-ahead.ts), so parsing overlaps
 * inserting. Session files are only read.
 */
import { indexedBlock } from './rules/fts-terms';
import { isV1Header, searchFields, v1EntryId } from './rules/search-text';
import { readRange } from '../storage/read';
import { scanLines } from '../storage/line-scan';
import { MAX_LINE_BYTES, type OversizedLine } from '../storage/line-split';
import { lineText, toolNamesText } from './line-text';

/**
 * The FTS5 index holds blocks of consecutive entries of one file, not single entries: a word is
 * then listed once per block, not once per entry, and a matching block's entries are verified with
 * one positioned read. A block's FTS rowid is its `blocks` rowid; its entries are `entries` rows.
 */
export const BLOCK_CHARS = 16_000;
export const BLOCK_ENTRIES = 200;
/** Bytes before `indexed_to` kept to notice a file rewritten in place. */
export const TAIL_BYTES = 64;
const CR = 0x0d;

/** An entry as the index stores it. */
export interface ParsedEntry {
  id: string | null;
  parentId: string | null;
  line: number;
  offset: number;
  length: number;
  role: string;
  time: number | null;
  /** Tool names as toolNamesText gives them ('' for none). */
  tools: string;
}

export interface ParsedBlock {
  entries: ParsedEntry[];
  /** Byte range of its lines. */
  from: number;
  to: number;
  /** Its entries' text, joined (null when parsed for a bulk load: `indexed` is then given). */
  text: string | null;
  /** Characters of text (0: no text, no FTS row). */
  chars: number;
  /** What FTS5 is given (indexedBlock), worked out where it was parsed; null when `text` is given. */
  indexed: string | null;
}

export interface ParsedHeader {
  sessionId: string;
  cwd: string;
  v1: boolean;
}

export interface ParsedMeta {
  name: string | null;
  last: string | null;
  leaf: string | null;
  hasLeaf: number;
}

/** Where parsing starts, and what the lines before it decided (a v1 file's ids chain on). */
export interface ParseStart {
  line: number;
  v1: boolean;
  lastId: string | null;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses lines as scanLines gives them; a block is handed on as soon as it is whole. */
export class FileParse {
  header: ParsedHeader | null = null;
  readonly problems: { line: number; message: string }[] = [];
  readonly meta: ParsedMeta = { name: null, last: null, leaf: null, hasLeaf: 0 };
  lines = 0;
  /** Characters of searchable text (text and thinking). */
  textChars = 0;
  private v1: boolean;
  private entries: ParsedEntry[] = [];
  private texts: string[] = [];
  private chars = 0;
  private from = 0;
  private to = 0;

  /** `bulk`: blocks carry their FTS5 text (`indexed`), not their words. */
  constructor(
    private readonly start: ParseStart,
    private readonly bulk: boolean,
    private readonly onBlock: (block: ParsedBlock) => void,
  ) {
    this.v1 = start.v1;
  }

  /** Hands on the block being filled (at the end of the file, or when it is full). */
  flush(): void {
    if (this.entries.length === 0) return;
    const text = this.chars > 0 ? this.texts.join(' ') : '';
    this.onBlock({
      entries: this.entries,
      from: this.from,
      to: this.to,
      text: this.bulk ? null : text,
      chars: this.chars,
      indexed: this.bulk && this.chars > 0 ? indexedBlock(text) : null,
    });
    this.entries = [];
    this.texts = [];
    this.chars = 0;
  }

  /** A line too long to read whole: not searched, and said (its file's other hits are still found). */
  readonly oversized = (o: OversizedLine): void => {
    if (!o.complete) return; // a last line still being written: indexed once it is whole
    this.lines++;
    this.problems.push({
      line: o.line,
      message: `a ${o.length}-byte line is longer than search reads (${MAX_LINE_BYTES} bytes): not searched`,
    });
  };

  readonly visit = (b: Buffer, s: number, e: number, line: number, offset: number, complete: boolean): void => {
    // A last line without its newline may be half written: it is indexed once it is complete.
    if (!complete) return;
    this.lines++;
    const text = lineText(b, s, e > s && b[e - 1] === CR ? e - 1 : e);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.problems.push({ line, message: `not valid JSON: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    if (!isRecord(value)) {
      this.problems.push({ line, message: 'not a JSON object' });
      return;
    }
    if (value.type === 'session') {
      if (line === 1) {
        this.v1 = isV1Header(value);
        this.header = {
          sessionId: typeof value.id === 'string' ? value.id : '',
          cwd: typeof value.cwd === 'string' ? value.cwd : '',
          v1: this.v1,
        };
      }
      return;
    }
    const f = searchFields(value, false);
    if (this.v1) {
      f.parentId = this.meta.last ?? this.start.lastId;
      f.id = v1EntryId(line);
    }
    if (this.entries.length === 0) this.from = offset;
    this.to = offset + e - s;
    this.entries.push({
      id: f.id,
      parentId: f.parentId,
      line,
      offset,
      length: e - s,
      role: f.role,
      time: Number.isNaN(f.time) ? null : f.time,
      tools: toolNamesText(f.tools),
    });
    // Not indexedText: FTS5 splits the same words whether whitespace runs are folded or not (a regex pass over all text).
    const body = f.thinking ? `${f.text}\n${f.thinking}` : f.text;
    if (body) {
      this.texts.push(body);
      this.chars += body.length;
    }
    this.textChars += f.text.length + f.thinking.length;
    if (f.id) this.meta.last = f.id;
    if (f.sessionName !== null) this.meta.name = f.sessionName;
    if (f.leafTarget !== undefined) {
      this.meta.leaf = f.leafTarget;
      this.meta.hasLeaf = 1;
    }
    if (this.entries.length >= BLOCK_ENTRIES || this.chars >= BLOCK_CHARS) this.flush();
  };
}

/** A whole file parsed from its start for a bulk load, with what marks it indexed. */
export interface ParsedFile {
  path: string;
  header: ParsedHeader | null;
  blocks: ParsedBlock[];
  problems: { line: number; message: string }[];
  meta: ParsedMeta;
  lines: number;
  textChars: number;
  ino: number;
  size: number;
  mtimeMs: number;
  endOffset: number;
  nextLine: number;
  tail: Uint8Array | null;
}

/** The last bytes before `end`, kept to notice a file rewritten in place. */
export async function tailOf(path: string, end: number): Promise<Buffer | null> {
  const from = Math.max(0, end - TAIL_BYTES);
  return end > 0 ? readRange(path, from, end - from) : null;
}

/** Parses every complete line of `path` (a bulk load's file, read from its start). */
export async function parseFile(path: string): Promise<ParsedFile> {
  const blocks: ParsedBlock[] = [];
  const parse = new FileParse({ line: 1, v1: false, lastId: null }, true, (b) => blocks.push(b));
  const r = await scanLines(path, parse.visit, { onOversized: parse.oversized });
  parse.flush();
  const tail = await tailOf(path, r.endOffset);
  return {
    path,
    header: parse.header,
    blocks,
    problems: parse.problems,
    meta: parse.meta,
    lines: parse.lines,
    textChars: parse.textChars,
    ino: r.ino,
    size: r.size,
    mtimeMs: r.mtimeMs,
    endOffset: r.endOffset,
    nextLine: r.nextLine,
    tail: tail ? new Uint8Array(tail.buffer, tail.byteOffset, tail.length) : null,
  };
}
