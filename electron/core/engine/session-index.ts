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
import { JsonSkimmer } from './json-skim';
import { JsonLineValidator } from './json-validate';
import { EntryStore } from './entry-store';
import type { IndexedEntry } from './indexed-entry';
import { isoMillis } from './iso-millis';
import {
  checkHeader,
  decideHeader,
  duplicateIssue,
  isPlainRecord,
  judgeEntry,
  lineValue,
  LONG_LINE,
  parseSession,
  type HeaderDecision,
  type RawLine,
} from '../rules/parse';
import { fileByType, type TypeLists } from '../rules/entries';
import type { OversizedFacts } from '../rules/line-damage';
import { storeSources } from './store-entries';
import { headerlessSession, refusedSession } from './unread-session';
import { InternedNames } from './interned-names';
import type { EntrySource, Issue, IssueKind, ParsedSession, Profile, SessionHeader } from '../types';

import { defaultDecode, UNREAD_STRINGS, type Decode, type IndexerOptions } from './index-options';
export type { Decode, IndexerOptions };

type Rec = Record<string, unknown>;
type Mode = 'preheader' | 'lazy' | 'fatal' | 'eager';

const CR = 0x0d;
/** reserve() hints above this are capped (a wrong guess must not cost much memory). */
const MAX_RESERVE = 1 << 22;
interface Undo {
  issues: number;
  entries: number;
  /** The winner the provisional entry's id replaced (-1: none). */
  previous: number;
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
  private readonly store: EntryStore;
  private readonly scan = newEnvelopeScan();
  private readonly decode: Decode;
  private readonly names: InternedNames;
  private readonly fast: boolean;
  /** verify 'parse': lines are checked from their skimmed text (a body read later parses the whole line). */
  private readonly skimmer: JsonSkimmer | null;
  private readonly validator: JsonLineValidator | null;
  private readonly newId: (() => string) | undefined;
  private readonly isAscii: IndexerOptions['isAscii'];
  private undo: Undo | null = null;
  /** Entries of the rarer types, filed as they are added (EntrySource.ofType). */
  private readonly typed: TypeLists = { byType: new Map(), messagesWithout: [] };
  /** What the rules read of the lazily indexed session (shared by every result()). */
  private readonly sources: (profile: Profile) => EntrySource;
  /** Lines indexed from their envelope alone / lines parsed with JSON.parse. */
  private readonly counts = { scanned: 0, parsed: 0 };

  constructor(opts: IndexerOptions) {
    this.decode = opts.decode ?? defaultDecode;
    this.names = new InternedNames(this.decode);
    const decode = this.decode;
    this.store = new EntryStore(
      opts.source,
      opts.bodyCache,
      opts.decode && ((b, start, end) => decode(b, start, end, true)),
    );
    this.store.issueSink = this.issues;
    this.sources = storeSources(this.store, this.typed);
    this.fast = opts.verify !== 'parse';
    this.skimmer = this.fast ? null : new JsonSkimmer(this.decode, UNREAD_STRINGS);
    this.validator = this.fast ? null : new JsonLineValidator();
    this.newId = opts.newId;
    this.isAscii = opts.isAscii;
  }

  /** Lines scanned / parsed, and the entry objects created so far (the rest are typed-array rows). */
  get stats(): { scanned: number; parsed: number; entryObjects: number } {
    return { ...this.counts, entryObjects: this.store.created };
  }

  /** Entries indexed so far. */
  get entryCount(): number {
    return this.store.count;
  }

  /** Bytes the index holds (its columns; see EntryStore.bytes), plus the skimmer's buffer. */
  get bytes(): number {
    return this.store.bytes + (this.skimmer?.bytes ?? 0);
  }

  /** Makes room for `n` entries up front (a hint: growing past it still works). */
  reserve(n: number): void {
    this.store.reserve(Math.min(n, MAX_RESERVE));
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
      // verify 'parse': a pi-shaped line that the validating scan accepts parses to exactly the
      // envelope scanned (json-validate.ts): no decode, no JSON.parse.
      if (complete && scanEnvelope(b, start, end, this.scan) && (this.fast || this.validator!.valid(b, start, end))) {
        this.counts.scanned++;
        this.addScanned(b, start, end, line, offset);
        return;
      }
      // A skimmed text parses exactly when the line does and gives the same envelope; a line too
      // long (its issue counts the whole line's characters) or not skimmed (null, undefined) is read whole.
      const skimmed = complete && length <= LONG_LINE ? this.skimmer?.skim(b, start, end) : undefined;
      if (typeof skimmed === 'string') {
        this.lazyLine({ line, text: skimmed, complete }, offset, length, false);
        return;
      }
      this.pushText({ line, text: this.decode(b, start, end, false), complete }, offset, length);
      return;
    }
    this.pushText({ line, text: this.decode(b, start, end, false), complete }, offset, length);
  }

  /** A line the reader refused for its size (never decoded): its issues, no entry. */
  pushOversized(o: { line: number; offset: number; length: number; complete: boolean } & OversizedFacts): void {
    this.pushText({ line: o.line, text: '', complete: o.complete, oversized: o }, o.offset, o.length);
  }

  /** One physical line as text (`length`: its UTF-8 byte length, for reading the body back). */
  pushText(raw: RawLine, offset: number, length: number): void {
    if (this.undo) throw new Error('a provisional (incomplete) line must be rolled back before more lines are pushed');
    switch (this.mode) {
      case 'lazy':
        this.lazyLine(raw, offset, length, true);
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
    const store = this.store;
    if (store.count > u.entries) {
      // A provisional line adds at most one entry.
      this.unfile(store.count - 1);
      store.idTable.removeLast(u.previous);
      store.truncate(u.entries);
    }
  }

  /**
   * The session as indexed so far (`hideTorn`: without the torn_last_line issue of a provisional
   * last line, for a live view while its writer is still appending). Lazily indexed sessions share their entry and issue arrays
   * between calls (a new wrapper object each time); others are built by parseSession.
   */
  result(opts: { hideTorn?: boolean } = {}): ParsedSession {
    switch (this.mode) {
      case 'preheader':
        return headerlessSession(this.issues);
      case 'fatal':
        return refusedSession(this.issues, this.fatal!);
      case 'eager':
        return parseSession(this.retained!, this.newId ? { newId: this.newId } : {});
      case 'lazy': {
        // `entries` creates the entry objects on first use: reading the leaf, the path and the
        // context goes through the store (entriesOf) and never needs all of them.
        const store = this.store;
        const s: ParsedSession = {
          header: this.header,
          format: this.format,
          migrated: false,
          issues: this.issues,
          headerLine: this.headerLine,
          get entries() {
            return store.entries;
          },
          entriesOf: this.sources,
        };
        // A writer still appending its last line: that line's torn_last_line issue is left out
        // (a getter: issues a body read adds later still show).
        const torn = opts.hideTorn && this.undo ? this.issues[this.undo.issues] : undefined;
        if (torn?.kind === 'torn_last_line') {
          const all = this.issues;
          Object.defineProperty(s, 'issues', { get: () => all.filter((i) => i !== torn), enumerable: true });
        }
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

  /** `whole`: `raw.text` is the whole line (its value may be kept as the entry's body). */
  private lazyLine(raw: RawLine, offset: number, length: number, whole: boolean): void {
    this.counts.parsed++;
    if (!raw.complete) this.undo = { issues: this.issues.length, entries: this.store.count, previous: -1 };
    const value = lineValue(raw, this.issues);
    if (value === undefined) return;
    // lineValue reported it: a later read of the body does not report it again.
    if (this.issues[this.issues.length - 1]?.kind === 'too_deep') this.store.noteTooDeep(raw.line, false);
    const verdict = judgeEntry(value, raw.line, this.issues, (id) => {
      const j = this.store.idTable.find(id);
      return j < 0 ? undefined : this.store.lineOf(j);
    });
    if (!verdict.keep) return;
    this.addParsed(value as Rec, raw.line, offset, length, whole, verdict.strictInvalid);
  }

  /**
   * An entry from a parsed line. A line that fails H3's envelope check but has an id is kept (as
   * pi's CA keeps it), its envelope normalised exactly as parse.ts's toLenientEntry does.
   */
  private addParsed(
    raw: Rec,
    line: number,
    offset: number,
    length: number,
    whole: boolean,
    strictInvalid?: IssueKind,
  ): void {
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
    const i = store.add(offset, length, line, type, role, hasMessage, NaN, timestamp, this.parentIndex(parentId));
    if (typeof parentId === 'string' && store.parents[i]! < 0) store.setParentText(i, parentId);
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
    if (whole) store.remember(i, raw);
    this.added(i, store.idTable.addText(i, raw.id as string));
  }

  private addScanned(b: Uint8Array, start: number, end: number, line: number, offset: number): void {
    const sc = this.scan;
    const ascii = !sc.nonAscii;
    const decode = this.decode;
    const store = this.store;
    const ids = store.idTable;
    const type = this.names.of(b, sc.typeStart, sc.typeEnd, ascii);
    // Ids stay bytes (hashed into the id table); only a parent that is not found yet is decoded.
    let parent = -2;
    let parentText: string | undefined;
    if (sc.parentStart >= 0) {
      const ps = sc.parentStart;
      const pe = sc.parentEnd;
      if (pe === ps) parentText = '';
      else if (ascii) {
        // Usually the entry just before.
        const prev = store.count - 1;
        parent = prev >= 0 && ids.equalsBytes(prev, b, ps, pe) ? prev : ids.findBytes(b, ps, pe);
        if (parent < 0) parentText = decode(b, ps, pe, true);
      } else {
        parentText = decode(b, ps, pe, false);
        parent = this.parentIndex(parentText);
      }
      if (parent < 0 && parentText !== '') parent = -3;
    }
    const tsMs = isoMillis(b, sc.tsStart, sc.tsEnd);
    const tsText = tsMs === tsMs ? undefined : decode(b, sc.tsStart, sc.tsEnd, ascii);
    const role = sc.roleStart >= 0 ? this.names.of(b, sc.roleStart, sc.roleEnd, ascii) : undefined;
    const length = end - start;
    if (length > LONG_LINE) {
      const chars = this.isAscii?.(b, start, end) ? length : decode(b, start, end, false).length;
      if (chars > LONG_LINE)
        this.issues.push({ line, kind: 'line_too_long', message: `line ${line} is ${chars} characters long` });
    }
    const i = store.add(offset, length, line, type, role, role === undefined ? undefined : true, tsMs, tsText, parent);
    if (parentText !== undefined) store.setParentText(i, parentText);
    if (sc.target === 1) store.setTarget(i, decode(b, sc.targetStart, sc.targetEnd, ascii));
    else if (sc.target === 0) store.setTarget(i, null);
    const previous = ascii
      ? ids.addBytes(i, b, sc.idStart, sc.idEnd)
      : ids.addText(i, decode(b, sc.idStart, sc.idEnd, false));
    if (previous >= 0) this.issues.push(duplicateIssue(line, store.idOf(i), store.lineOf(previous)));
    this.added(i, previous);
  }

  /** The parent's index for the fast path walks (see EntryStore.parents). */
  private parentIndex(parentId: string | null | undefined): number {
    if (!parentId) return -2;
    const j = this.store.idTable.find(parentId);
    return j >= 0 ? j : -3;
  }

  /**
   * Entry `i` was added and its id recorded, replacing the winner `previous` (-1: a new id). Only
   * the entries the type lists hold are created as objects (rules/entries.ts fileByType); a message
   * known to have its message is not listed.
   */
  private added(i: number, previous: number): void {
    const store = this.store;
    if (previous >= 0) store.parentsDirty = true;
    if (this.undo) this.undo.previous = previous;
    if (store.typeOf(i) === 'message' && store.factsOf(i)?.hasMessage === true) return;
    fileByType(this.typed, store.entryAt(i));
  }

  /** Takes entry `i` (the last added) back out of the type lists. */
  private unfile(i: number): void {
    const type = this.store.typeOf(i);
    const list = type === 'message' ? this.typed.messagesWithout : this.typed.byType.get(type);
    if (list && list.length > 0 && (list[list.length - 1] as IndexedEntry).i === i) list.pop();
  }
}
