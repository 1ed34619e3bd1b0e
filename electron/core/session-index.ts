/**
 * Incremental, lazy-bodied parsing: the same result as parseSession, built one line of bytes at a
 * time, with entry bodies left in the file. PURE (bytes in; the storage layer reads the file).
 *
 * Lines whose envelope the prefix scanner (envelope-scan.ts) reads become entries without being
 * parsed; every other line goes through exactly the steps parseSession applies (lineValue,
 * decideHeader, acceptEntry). Files that need pi's v1/v2 migration are collected and handed to
 * parseSession itself: the migration rewrites ids and payloads, and such files are small and old.
 *
 * A final line without its newline is provisional: `rollbackProvisional()` takes back what it
 * added, so a follower can push it again once it is complete (live tail).
 */
import { newEnvelopeScan, scanEnvelope } from './envelope-scan';
import { EntryStore, isoMillis, type BodyCacheOptions, type IndexedEntry, type LineSource } from './lazy-entry';
import {
  checkHeader, decideHeader, duplicateIssue, isPlainRecord, judgeEntry, lineValue, LONG_LINE, MISSING_HEADER, parseSession,
  type HeaderDecision, type RawLine,
} from './parse';
import { seedIndexById } from './tree';
import { fileByType, seedTypeIndex, type TypeIndexSeed } from './type-index';
import type { Entry, Issue, IssueKind, ParsedSession, SessionHeader } from './types';

/** Bytes → string. `ascii` promises every byte is < 0x80 (a Latin-1 decode is then exact). */
export type Decode = (b: Uint8Array, start: number, end: number, ascii: boolean) => string;

export interface IndexerOptions {
  /** Where `raw` bodies are read from. */
  source: LineSource;
  /** Faster decoding (Node's Buffer); default TextDecoder. */
  decode?: Decode;
  /** Id source for v1 entries (passed to parseSession). */
  newId?: () => string;
  /**
   * 'fast' (default): pi-shaped lines are indexed from their envelope, the rest parsed.
   * 'parse': every line is parsed while indexing (bodies are still dropped and read again on demand).
   */
  verify?: 'fast' | 'parse';
  bodyCache?: BodyCacheOptions;
}

type Rec = Record<string, unknown>;
type Mode = 'preheader' | 'lazy' | 'fatal' | 'eager';

const CR = 0x0d;
const utf8 = new TextDecoder();
const defaultDecode: Decode = (b, start, end) => utf8.decode(b.subarray(start, end));

interface Undo {
  issues: number;
  entries: number;
  id: string | null;
  previous: Entry | undefined;
}

export class SessionIndexer {
  private mode: Mode = 'preheader';
  private readonly issues: Issue[] = [];
  /** Lines kept while the header is unknown, and for files that need migration. */
  private retained: RawLine[] | null = [];
  private header: SessionHeader | null = null;
  private headerLine = 0;
  private headerComplete = true;
  private format: number | null = null;
  private fatal: Extract<HeaderDecision, { ok: false }> | null = null;
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly store: EntryStore;
  private readonly scan = newEnvelopeScan();
  private readonly decode: Decode;
  private readonly fast: boolean;
  private readonly newId: (() => string) | undefined;
  private undo: Undo | null = null;
  private prevId = '';
  private readonly names: string[] = [];
  /** Entries of the rarer types, filed as they are added (see type-index.ts). */
  private readonly typed: Omit<TypeIndexSeed, 'count'> = { byType: new Map(), messagesWithout: [] };
  /** Lines indexed from their envelope alone / lines parsed with JSON.parse. */
  readonly stats = { scanned: 0, parsed: 0 };

  constructor(opts: IndexerOptions) {
    this.store = new EntryStore(opts.source, opts.bodyCache);
    this.store.entries = this.entries;
    this.store.byId = this.byId;
    this.decode = opts.decode ?? defaultDecode;
    this.fast = opts.verify !== 'parse';
    this.newId = opts.newId;
  }

  /** Entries indexed so far. */
  get entryCount(): number {
    return this.entries.length;
  }

  /**
   * True when appended lines can be pushed into this index: a v3 session whose header line was
   * complete. Anything else (no header yet, not a session, needs migration) is re-read whole.
   */
  get followable(): boolean {
    return this.mode === 'lazy' && this.headerComplete;
  }

  /**
   * One physical line: bytes b[start, end) without the '\n' (a '\r' before it is dropped here),
   * its 1-based line number, the byte offset of its first byte, and whether a '\n' ended it.
   */
  pushLine(b: Uint8Array, start: number, end: number, line: number, offset: number, complete: boolean): void {
    if (this.undo) throw new Error('a provisional (incomplete) line must be rolled back before more lines are pushed');
    if (end > start && b[end - 1] === CR) end--;
    const length = end - start;
    if (this.mode === 'lazy') {
      if (complete && this.fast && scanEnvelope(b, start, end, this.scan)) {
        this.stats.scanned++;
        this.addScanned(b, start, end, line, offset);
        return;
      }
      this.pushText({ line, text: this.decode(b, start, end, false), complete }, offset, length);
      return;
    }
    this.pushText({ line, text: this.decode(b, start, end, false), complete }, offset, length);
  }

  /** One physical line as text (`length`: its UTF-8 byte length, for reading the body back). */
  pushText(raw: RawLine, offset: number, length: number): void {
    if (this.undo) throw new Error('a provisional (incomplete) line must be rolled back before more lines are pushed');
    switch (this.mode) {
      case 'lazy':
        this.lazyLine(raw, offset, length);
        return;
      case 'eager':
        this.retained!.push(raw);
        return;
      case 'fatal':
        lineValue(raw, this.issues);
        return;
      case 'preheader': {
        this.retained!.push(raw);
        const value = lineValue(raw, this.issues);
        if (value !== undefined) this.decide(value, raw);
        return;
      }
    }
  }

  /** Takes back what a final line without newline added (no-op when the last line was complete). */
  rollbackProvisional(): void {
    const u = this.undo;
    if (!u) return;
    this.undo = null;
    this.issues.length = u.issues;
    if (this.entries.length > u.entries) {
      for (let k = this.entries.length - 1; k >= u.entries; k--) this.unfile(this.entries[k]!);
      this.entries.length = u.entries;
      this.store.truncate(u.entries);
      if (u.id !== null) {
        if (u.previous) this.byId.set(u.id, u.previous);
        else this.byId.delete(u.id);
      }
      const last = this.entries[this.entries.length - 1];
      this.prevId = last ? last.id : '';
    }
  }

  /**
   * The session as indexed so far. Lazily indexed sessions share their entry and issue arrays
   * between calls (a new wrapper object each time); others are built by parseSession.
   */
  result(): ParsedSession {
    switch (this.mode) {
      case 'preheader': {
        const issues = [...this.issues, { line: 1, kind: 'invalid_header' as const, message: MISSING_HEADER }];
        return { header: null, format: null, migrated: false, entries: [], issues, fatal: { code: 'invalid_session', message: MISSING_HEADER } };
      }
      case 'fatal': {
        const f = this.fatal!;
        return { header: null, format: f.format, migrated: false, entries: [], issues: [...this.issues, f.issue], fatal: f.fatal };
      }
      case 'eager':
        return parseSession(this.retained!, this.newId ? { newId: this.newId } : {});
      case 'lazy': {
        const s: ParsedSession = {
          header: this.header, format: this.format, migrated: false, entries: this.entries, issues: this.issues, headerLine: this.headerLine,
        };
        seedIndexById(s, this.byId);
        seedTypeIndex(s, { count: this.entries.length, ...this.typed });
        return s;
      }
    }
  }

  private decide(value: unknown, raw: RawLine): void {
    const d = decideHeader(value, raw.line);
    if (!d.ok) {
      this.mode = 'fatal';
      this.fatal = d;
      this.retained = null;
      return;
    }
    if (d.needsMigration) {
      this.mode = 'eager';
      return;
    }
    this.mode = 'lazy';
    this.retained = null;
    this.header = d.header;
    this.headerLine = raw.line;
    this.format = d.format;
    this.headerComplete = raw.complete;
    checkHeader(value as Rec, raw.line, this.issues);
  }

  private lazyLine(raw: RawLine, offset: number, length: number): void {
    this.stats.parsed++;
    if (!raw.complete) this.undo = { issues: this.issues.length, entries: this.entries.length, id: null, previous: undefined };
    const value = lineValue(raw, this.issues);
    if (value === undefined) return;
    const verdict = judgeEntry(value, raw.line, this.issues, (id) => this.byId.get(id)?.line);
    if (!verdict.keep) return;
    this.addParsed(value as Rec, raw.line, offset, length, verdict.strictInvalid);
  }

  /**
   * An entry from a parsed line. A line that fails H3's envelope check but has an id is kept (as
   * pi's CA keeps it), its envelope normalised exactly as parse.ts's toLenientEntry does.
   */
  private addParsed(raw: Rec, line: number, offset: number, length: number, strictInvalid?: IssueKind): void {
    const type = strictInvalid && typeof raw.type !== 'string' ? '' : (raw.type as string);
    const parentId = strictInvalid && typeof raw.parentId !== 'string' ? null : (raw.parentId as string | null);
    const timestamp = strictInvalid && typeof raw.timestamp !== 'string' ? '' : (raw.timestamp as string);
    let role: string | undefined;
    let hasMessage: boolean | undefined;
    if (type === 'message') {
      const m = raw.message;
      hasMessage = m !== null && m !== undefined;
      if (isPlainRecord(m) && typeof m.role === 'string') role = m.role;
    }
    const store = this.store;
    const id = raw.id as string;
    if (this.byId.has(id)) store.parentsDirty = true;
    const i = store.add(offset, length, line, role, hasMessage, NaN, timestamp, this.parentIndex(parentId));
    if (type === 'leaf' || type === 'label' || type === 'context_edit') {
      const t = raw.targetId;
      if (typeof t === 'string' || t === null) store.setTarget(i, t);
    } else if (type === 'compaction') {
      store.setCompaction(i, {
        hasRetainedTailKey: Object.prototype.hasOwnProperty.call(raw, 'retainedTail'),
        retainedTail: Boolean(raw.retainedTail),
        firstKeptEntryId: raw.firstKeptEntryId,
      });
    }
    if (strictInvalid) store.setStrictInvalid(i, strictInvalid);
    store.remember(i, raw);
    this.addEntry(new store.Entry(id, parentId, type, i));
  }

  private addScanned(b: Uint8Array, start: number, end: number, line: number, offset: number): void {
    const sc = this.scan;
    const ascii = !sc.nonAscii;
    const decode = this.decode;
    const type = this.name(b, sc.typeStart, sc.typeEnd, ascii);
    const id = decode(b, sc.idStart, sc.idEnd, ascii);
    let parentId: string | null = null;
    if (sc.parentStart >= 0) {
      // Usually the entry just before: share its id string instead of decoding a copy.
      const prev = this.prevId;
      parentId = ascii && sameText(b, sc.parentStart, sc.parentEnd, prev) ? prev : decode(b, sc.parentStart, sc.parentEnd, ascii);
    }
    const tsMs = isoMillis(b, sc.tsStart, sc.tsEnd);
    const tsText = tsMs === tsMs ? undefined : decode(b, sc.tsStart, sc.tsEnd, ascii);
    const role = sc.roleStart >= 0 ? this.name(b, sc.roleStart, sc.roleEnd, ascii) : undefined;
    const length = end - start;
    if (length > LONG_LINE) {
      const chars = decode(b, start, end, false).length;
      if (chars > LONG_LINE) this.issues.push({ line, kind: 'line_too_long', message: `line ${line} is ${chars} characters long` });
    }
    const store = this.store;
    const earlier = this.byId.get(id);
    if (earlier) {
      this.issues.push(duplicateIssue(line, id, earlier.line));
      store.parentsDirty = true;
    }
    const i = store.add(offset, length, line, role, role === undefined ? undefined : true, tsMs, tsText, this.parentIndex(parentId));
    if (sc.target === 1) store.setTarget(i, decode(b, sc.targetStart, sc.targetEnd, ascii));
    else if (sc.target === 0) store.setTarget(i, null);
    this.addEntry(new store.Entry(id, parentId, type, i));
  }

  /** The parent's index for the fast path walks (see EntryStore.parents). */
  private parentIndex(parentId: string | null): number {
    if (!parentId) return -2;
    const last = this.entries.length - 1;
    if (last >= 0 && parentId === this.prevId) return last;
    const w = this.byId.get(parentId);
    return w ? (w as IndexedEntry).i : -3;
  }

  private addEntry(e: Entry): void {
    if (this.undo) {
      this.undo.id = e.id;
      this.undo.previous = this.byId.get(e.id);
    }
    this.entries.push(e);
    this.store.ids.push(e.id);
    this.byId.set(e.id, e);
    this.prevId = e.id;
    fileByType(this.typed, e);
  }

  /** Takes the last added entry `e` back out of the type lists. */
  private unfile(e: Entry): void {
    const list = e.type === 'message' ? this.typed.messagesWithout : this.typed.byType.get(e.type);
    if (list && list[list.length - 1] === e) list.pop();
  }

  /** Types and roles repeat: keep one string per distinct ASCII value. */
  private name(b: Uint8Array, start: number, end: number, ascii: boolean): string {
    if (ascii) {
      for (const n of this.names) if (sameText(b, start, end, n)) return n;
      const text = this.decode(b, start, end, true);
      if (this.names.length < 64) this.names.push(text);
      return text;
    }
    return this.decode(b, start, end, false);
  }
}

function sameText(b: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (b[start + k] !== text.charCodeAt(k)) return false;
  return true;
}
