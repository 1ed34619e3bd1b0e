/**
 * An open session that follows its file: indexed once in one streaming pass, then kept current by
 * reading only the bytes appended since (storage/tail.ts). A partial last line is indexed
 * provisionally (as a fresh open would see it) and taken back when more bytes arrive; a file that
 * was truncated, replaced or rewritten is indexed again from scratch. v1/v2 files (migrated in
 * memory) and files without a usable header are always re-read whole: they are small and rare.
 */
import { SessionIndexer, type ParsedSession } from '../core';
import { readRange } from '../storage/read';
import { decodeBytes, isAsciiBytes, scanLines, SyncLineReader, type LineVisitor } from '../storage/line-scan';
import { MAX_LINE_BYTES } from '../storage/line-split';
import { statPath } from '../storage/stat';
import { tailFrom } from '../storage/tail';
import type { FileStamp } from './file-cache';

export interface IndexOptions {
  signal?: AbortSignal;
  /** Bytes read so far and the file size, after each chunk. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** 'parse' parses every line while indexing (see SessionIndexer). Default 'fast'. */
  verify?: 'fast' | 'parse';
  /** Idle time after which the file handle used for body reads is closed. */
  readerIdleMs?: number;
  /** Id source for v1 entries. */
  newId?: () => string;
  /** Sees every line of the first index pass too (the previews skim it: no second read). */
  onLine?: LineVisitor;
}

/**
 * What an open session holds besides its index columns, whatever its size: the body reader's
 * buffer (64 KiB, storage/line-scan.ts), the parsed view, file facts and the objects around them.
 * Measured: 10,000 one-line sessions held ~200 KB each, most of it the columns' first capacity.
 */
const SESSION_BASE_BYTES = 96 * 1024;
/** A file parsed whole (v1/v2, no usable header) holds its bodies as objects: about this many times its size. */
const PARSED_BYTES_PER_FILE_BYTE = 3;

export interface RefreshResult {
  /** unchanged: nothing new; appended: lines were added in place; reindexed: read again whole. */
  kind: 'unchanged' | 'appended' | 'reindexed';
  /** Entries added (appended) or the new entry count (reindexed). */
  added: number;
  /** Why the file was read again (truncated, replaced, rewritten, not followable). */
  reason?: string;
}

interface Position {
  /** Start of the provisional line, or end of file: where the next read starts. */
  offset: number;
  nextLine: number;
  ino: number;
  stamp: FileStamp;
}

export class LiveSession {
  private indexer!: SessionIndexer;
  private reader!: SyncLineReader;
  private current!: ParsedSession;
  /** `current` without a still-written last line's issue (see sessionAt), made on first use. */
  private writing: { of: ParsedSession; session: ParsedSession } | null = null;
  private pos!: Position;
  private queue: Promise<unknown> = Promise.resolve();
  /** Bumped each time the file is indexed whole (a view of another generation is of another file). */
  private indexed = 0;

  private constructor(
    readonly path: string,
    private readonly opts: IndexOptions,
  ) {}

  /** Indexes `path` in one streaming pass. Rejects with the file system error or an AbortError. */
  static async open(path: string, opts: IndexOptions = {}): Promise<LiveSession> {
    // The line hook serves the first pass only; the session does not keep it (nor what it holds).
    const { onLine, ...kept } = opts;
    const live = new LiveSession(path, kept);
    await live.index({ ...kept, ...(onLine ? { onLine } : {}) });
    return live;
  }

  /** The session as of the last read. A new object after every change (entry arrays are shared). */
  get session(): ParsedSession {
    return this.current;
  }

  /**
   * The session for a live view at time `now`: when the file was written to less than `idleMs`
   * ago, a last line without its newline is pi still writing, and its torn_last_line issue is left
   * out. A writer idle for longer (or a non-live read: `session`) reports it.
   */
  sessionAt(now: number, idleMs: number): ParsedSession {
    if (now - this.pos.stamp.mtimeMs >= idleMs) return this.current;
    if (!this.writing || this.writing.of !== this.current)
      this.writing = { of: this.current, session: this.indexer.result({ hideTorn: true }) };
    return this.writing.session;
  }

  /** How many times the file was indexed whole (1 after the open; more after a truncation or rewrite). */
  get generation(): number {
    return this.indexed;
  }

  /** (size, mtime) of the file when it was last read. */
  get stamp(): FileStamp {
    return this.pos.stamp;
  }

  /** How many lines the scanner indexed without parsing them, and how many were parsed. */
  get stats(): { scanned: number; parsed: number; entryObjects: number } {
    return this.indexer.stats;
  }

  /** The memory the index holds: its columns' buffers as allocated (not per entry), and what every open session holds. */
  get indexBytes(): number {
    const index = this.indexer.followable ? this.indexer.bytes : this.pos.stamp.size * PARSED_BYTES_PER_FILE_BYTE;
    return index + SESSION_BASE_BYTES;
  }

  /** Byte offset up to which the file has been indexed for good (complete lines). */
  get offset(): number {
    return this.pos.offset;
  }

  /** Reads what changed since the last read. Calls are serialised. */
  refresh(opts: Pick<IndexOptions, 'signal' | 'onProgress'> = {}): Promise<RefreshResult> {
    const run = this.queue.then(() => this.doRefresh(opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** `length` bytes at `offset` of the indexed file, in a buffer reused by the next read (throws when the file was replaced). */
  readBytes(offset: number, length: number): Buffer {
    return this.reader.readBytes(offset, length);
  }

  /** Closes the file handle kept for body reads (it reopens on demand). */
  close(): void {
    this.reader?.close();
  }

  private async index(opts: Pick<IndexOptions, 'signal' | 'onProgress' | 'verify' | 'onLine'>): Promise<void> {
    let reader: SyncLineReader | null = null;
    const verify = opts.verify ?? this.opts.verify ?? 'fast';
    const indexer = new SessionIndexer({
      source: { readText: (offset, length) => (reader ?? this.reader).readText(offset, length) },
      decode: decodeBytes,
      isAscii: isAsciiBytes,
      verify,
      ...(this.opts.newId ? { newId: this.opts.newId } : {}),
    });
    const { onProgress, onLine } = opts;
    let sized = false;
    const visit: LineVisitor = onLine
      ? (b, start, end, line, offset, complete) => {
          indexer.pushLine(b, start, end, line, offset, complete);
          onLine(b, start, end, line, offset, complete);
        }
      : (b, start, end, line, offset, complete) => indexer.pushLine(b, start, end, line, offset, complete);
    const r = await scanLines(this.path, visit, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      onOversized: (o) => indexer.pushOversized(o),
      onProgress: (read, total) => {
        if (!sized) {
          // After the first chunk: room for as many entries as its line density predicts.
          sized = true;
          indexer.reserve(Math.ceil(((indexer.entryCount * total) / Math.max(1, read)) * 1.1));
        }
        onProgress?.(read, total);
      },
    });
    reader = new SyncLineReader(this.path, r.ino, this.opts.readerIdleMs);
    this.reader?.close();
    this.reader = reader;
    this.indexer = indexer;
    this.indexed++;
    this.current = indexer.result();
    this.pos = {
      offset: r.endOffset,
      nextLine: r.nextLine,
      ino: r.ino,
      // The file may have grown while it was read: the stamp says what was read (a later refresh tails).
      stamp: { size: Math.max(r.size, r.endOffset + r.pendingBytes), mtimeMs: r.mtimeMs },
    };
  }

  /** Entries indexed (an indexed session's count, without creating its entry objects). */
  entryCount(): number {
    return this.indexer.followable ? this.indexer.entryCount : this.current.entries.length;
  }

  private async reindex(reason: string, opts: Pick<IndexOptions, 'signal' | 'onProgress'>): Promise<RefreshResult> {
    await this.index(opts);
    return { kind: 'reindexed', added: this.entryCount(), reason };
  }

  private async doRefresh(opts: Pick<IndexOptions, 'signal' | 'onProgress'>): Promise<RefreshResult> {
    const facts = await statPath(this.path);
    const stamp = { size: facts.size, mtimeMs: facts.mtimeMs };
    if (facts.ino === this.pos.ino && stamp.size === this.pos.stamp.size && stamp.mtimeMs === this.pos.stamp.mtimeMs) {
      return { kind: 'unchanged', added: 0 };
    }
    if (!this.indexer.followable) return this.reindex('not followable', opts);
    const t = await tailFrom(this.path, this.pos.offset, { firstLine: this.pos.nextLine, ino: this.pos.ino });
    if (t.reset) return this.reindex(t.reset, opts);

    const before = this.indexer.entryCount;
    const indexer = this.indexer;
    indexer.rollbackProvisional();
    for (const line of t.lines)
      if (line.oversized) indexer.pushOversized(line.oversized);
      else indexer.pushText({ line: line.line, text: line.text, complete: true }, line.offset, line.length);
    if (t.pendingBytes > MAX_LINE_BYTES) {
      indexer.pushOversized({ line: t.nextLine, offset: t.offset, length: t.pendingBytes, complete: false });
    } else if (t.pendingBytes > 0) {
      const bytes = await readRange(this.path, t.offset, t.pendingBytes);
      indexer.pushLine(bytes, 0, bytes.length, t.nextLine, t.offset, false);
    }
    this.current = indexer.result();
    this.pos = {
      offset: t.offset,
      nextLine: t.nextLine,
      ino: t.ino,
      stamp: { size: Math.max(t.size, t.offset + t.pendingBytes), mtimeMs: stamp.mtimeMs },
    };
    const added = indexer.entryCount - before;
    return { kind: t.lines.length > 0 || t.pendingBytes > 0 || added !== 0 ? 'appended' : 'unchanged', added };
  }
}
