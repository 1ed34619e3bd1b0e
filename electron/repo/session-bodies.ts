/**
 * One-line previews of every entry (what a graph node draws) and the usage each entry records (the
 * cost ledgers), for an indexed session whose bodies are on disk: computed in one sequential pass
 * over the file (not one random read per entry), or skimmed during the index pass itself, kept by
 * the session's owner (session-store.ts), and extended for appended entries only.
 */
import {
  BodyError,
  entryUsageFact,
  isIndexedEntry,
  isPlainRecord,
  JsonSkimmer,
  PREVIEW_SKIM_KEYS,
  previewEntry,
  usageFactOf,
  usageRecordOf,
  type Entry,
  type EntryPreview,
  type IndexedEntry,
  type ParsedSession,
  type UsageFact,
} from '../core';
import { decodeBytes, scanLines, type LineVisitor } from '../storage/line-scan';
import { lineBytes, type ReadBytes } from './entry-payload';

export const PREVIEW_CACHE_BYTES = 8 * 1024 * 1024;
/** A line longer than this is previewed from its skim (a 20 MB image line is not parsed whole). */
export const HEAVY_LINE_BYTES = 64 * 1024;

/**
 * The preview of an entry read on its own. A BodyError is thrown on: the line no longer matches
 * the index (the file changed), or it only looked like pi's and is not JSON (pi's readers drop such
 * a line). The store answers it by indexing the file again, parsing every line.
 */
function previewOf(e: Entry): EntryPreview {
  try {
    return previewEntry(e);
  } catch (err) {
    if (err instanceof BodyError) throw err;
    return { preview: '(unreadable)' };
  }
}

/** A rough size of a preview in memory (UTF-16 strings plus object overhead). */
function sizeOf(p: EntryPreview): number {
  let n = 96 + p.preview.length * 2;
  for (const t of p.toolNames ?? []) n += 32 + t.length * 2;
  return n + (p.model?.length ?? 0) * 2 + (p.stopReason?.length ?? 0) * 2 + (p.customType?.length ?? 0) * 2;
}

/** A line's body cut to what a preview reads (long texts shortened, usage numbers whole); undefined: unreadable. */
function skimLine(skimmer: JsonSkimmer, b: Buffer, start: number, end: number): unknown {
  const text = skimmer.skim(b, start, end);
  try {
    return text === null ? undefined : JSON.parse(text ?? decodeBytes(b, start, end, false));
  } catch {
    return undefined;
  }
}

/**
 * Preview and usage of `e` from its skimmed line. Only a body that matches the envelope answers for
 * the entry; anything odd is read (and checked) on its own, which throws when the line is not the entry's.
 */
function fromSkim(e: IndexedEntry, raw: unknown): { preview: EntryPreview; usage: UsageFact | null | undefined } {
  const body = raw as Record<string, unknown>;
  if (isPlainRecord(raw) && body.id === e.id && body.type === e.type && body.parentId === e.parentId) {
    return { preview: previewEntry({ type: e.type, raw } as Entry), usage: usageFactOf(usageRecordOf(e.type, body)) };
  }
  return { preview: previewOf(e), usage: undefined };
}

export interface PreviewOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

const offsetOf = (e: IndexedEntry): number => e.store.byteRange(e.i).offset;

/** Previews read one by one (before the full pass is done), bounded by bytes, oldest dropped first. */
interface Batches {
  byId: Map<string, number>;
  /** Entries whose ids are in byId. */
  seen: number;
  /** Entry index → [the entry it was made for, preview, its size]; insertion order = age. */
  made: Map<number, { ref: Entry; preview: EntryPreview; bytes: number }>;
  bytes: number;
}

/** The previews and usages of one open session's entries (one instance per open session). */
export class SessionBodies {
  /** The entry list the caches below were made for (a re-index makes a new one). */
  private of: Entry[] | null = null;
  /** The entry each full-pass preview was made for (a provisional last entry may be replaced). */
  private refs: Entry[] = [];
  private all: EntryPreview[] = [];
  /** Usage facts; undefined: not gathered in the pass (read from the entry when asked). */
  private usages: Array<UsageFact | null | undefined> = [];
  private allBytes = 0;
  private batches: Batches = { byId: new Map(), seen: 0, made: new Map(), bytes: 0 };
  /** Lines skimmed by the index pass, by byte offset: the first full pass then reads nothing. */
  private skimmed: Map<number, unknown> | null = null;
  /** Calls are serialised: each extends what the previous one left. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `readLine`: the file's bytes (given by the session's owner): a heavy line read on its own is previewed from its skim. */
  constructor(
    private readonly path: string,
    private readonly maxBatchBytes = PREVIEW_CACHE_BYTES,
    private readonly readLine: ReadBytes | null = null,
  ) {}

  /** The preview of an entry read on its own; a heavy line's from its skim (what the full pass reads too). */
  private previewOne(e: Entry): EntryPreview {
    if (!this.readLine || !isIndexedEntry(e)) return previewOf(e);
    if (e.store.byteRange(e.i).length <= HEAVY_LINE_BYTES) return previewOf(e);
    const { bytes } = lineBytes(this.readLine, e);
    return fromSkim(e, skimLine(new JsonSkimmer(decodeBytes, PREVIEW_SKIM_KEYS), bytes, 0, bytes.length)).preview;
  }

  /** An estimate of the memory held (previews and skimmed lines). */
  get bytes(): number {
    return this.allBytes + this.batches.bytes + (this.skimmed?.size ?? 0) * 256;
  }

  /** A line visitor for the index pass that keeps each line's skimmed body for the previews. */
  skimDuringIndex(): LineVisitor {
    const skimmed = new Map<number, unknown>();
    this.skimmed = skimmed;
    const skimmer = new JsonSkimmer(decodeBytes, PREVIEW_SKIM_KEYS);
    return (b, start, end, _line, offset) => {
      skimmed.set(offset, skimLine(skimmer, b, start, end));
    };
  }

  private sync(entries: Entry[]): void {
    if (this.of === entries) return;
    this.of = entries;
    this.refs = [];
    this.all = [];
    this.usages = [];
    this.allBytes = 0;
    this.batches = { byId: new Map(), seen: 0, made: new Map(), bytes: 0 };
  }

  /** Previews aligned with `s.entries` (index i ↔ entry i). */
  async previews(s: ParsedSession, opts: PreviewOptions = {}): Promise<EntryPreview[]> {
    await this.extendTo(s, opts);
    return this.all.slice();
  }

  /**
   * The usage an entry records (cost-ledger's entryUsageFact), answered from the same pass as the
   * previews; only entries the pass could not read are read on their own.
   */
  async usageOf(s: ParsedSession, opts: PreviewOptions = {}): Promise<(e: Entry) => UsageFact | null> {
    await this.extendTo(s, opts);
    const { refs, usages } = this;
    // An indexed entry's store index is its position in the entry list, so in `refs` too (the
    // identity check catches a provisional entry replaced since).
    return (e) => {
      const fact = isIndexedEntry(e) && refs[e.i] === e ? usages[e.i] : undefined;
      return fact === undefined ? entryUsageFact(e) : fact;
    };
  }

  private extendTo(s: ParsedSession, opts: PreviewOptions): Promise<void> {
    const run = this.queue.then(() => {
      this.sync(s.entries);
      return this.extend(s.entries, opts);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async extend(entries: Entry[], opts: PreviewOptions): Promise<void> {
    let n = this.refs.length;
    while (n > 0 && (n > entries.length || entries[n - 1] !== this.refs[n - 1])) n--;
    for (let k = n; k < this.all.length; k++) this.allBytes -= sizeOf(this.all[k]!);
    this.refs.length = n;
    this.all.length = n;
    this.usages.length = n;
    if (n === entries.length) return;

    const pending = entries.slice(n);
    const out: EntryPreview[] = new Array<EntryPreview>(pending.length);
    const usages: Array<UsageFact | null | undefined> = new Array<UsageFact | null | undefined>(pending.length);
    const skimmed = this.skimmed;
    this.skimmed = null;
    if (!pending.every(isIndexedEntry)) {
      for (let k = 0; k < pending.length; k++) out[k] = previewOf(pending[k]!);
    } else if (skimmed?.has(offsetOf(pending[0] as IndexedEntry))) {
      (pending as IndexedEntry[]).forEach((e, k) => {
        const off = offsetOf(e);
        if (skimmed.has(off)) ({ preview: out[k]!, usage: usages[k] } = fromSkim(e, skimmed.get(off)));
        else out[k] = previewOf(e);
      });
    } else {
      await this.scan(pending as IndexedEntry[], out, usages, opts);
      // A re-indexed entry list arrived while the file was read: these previews are of the old one.
      if (this.of !== entries) return;
    }
    for (let k = 0; k < pending.length; k++) {
      this.refs.push(pending[k]!);
      this.all.push(out[k]!);
      this.usages.push(usages[k]);
      this.allBytes += sizeOf(out[k]!);
    }
  }

  /** One sequential pass over the file from the first pending entry. */
  private async scan(
    indexed: IndexedEntry[],
    out: EntryPreview[],
    usages: Array<UsageFact | null | undefined>,
    opts: PreviewOptions,
  ): Promise<void> {
    const skimmer = new JsonSkimmer(decodeBytes, PREVIEW_SKIM_KEYS);
    let k = 0;
    await scanLines(
      this.path,
      (b, start, end, _line, lineOffset) => {
        if (k >= indexed.length) return;
        // Entries are in file order; a line between them (blank, junk, header) is skipped.
        while (k < indexed.length && offsetOf(indexed[k]!) < lineOffset) {
          out[k] = previewOf(indexed[k]!);
          k++;
        }
        const e = indexed[k];
        if (!e || offsetOf(e) !== lineOffset) return;
        ({ preview: out[k]!, usage: usages[k] } = fromSkim(e, skimLine(skimmer, b, start, end)));
        k++;
      },
      {
        fromOffset: offsetOf(indexed[0]!),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      },
    );
    for (; k < indexed.length; k++) out[k] = previewOf(indexed[k]!);
  }

  /**
   * The previews of the entries named by `ids` (one per id found; the first entry of an id that
   * occurs twice): from the full pass when it is done, else read one by one and kept in a cache
   * bounded by `maxBytes`.
   */
  byId(s: ParsedSession, ids: readonly string[], maxBytes = this.maxBatchBytes): Record<string, EntryPreview> {
    const entries = s.entries;
    this.sync(entries);
    let b = this.batches;
    if (b.seen > entries.length) this.batches = b = { byId: new Map(), seen: 0, made: new Map(), bytes: 0 };
    const batches = b;
    // Every id unique (the usual file): the index's id table finds an entry's position, and no map
    // of 300k ids is built before the first frame's previews.
    const index = s.entriesOf('ca').byId;
    const unique = index.size === entries.length;
    const positionOf = (id: string): number | undefined => {
      if (unique) {
        const e = index.get(id);
        if (e === undefined) return undefined;
        if (isIndexedEntry(e) && entries[e.i] === e) return e.i;
      }
      // Ids of appended entries are added as they come (a replaced provisional line keeps its id).
      for (; batches.seen < entries.length; batches.seen++)
        if (!batches.byId.has(entries[batches.seen]!.id)) batches.byId.set(entries[batches.seen]!.id, batches.seen);
      return batches.byId.get(id);
    };
    const out: Record<string, EntryPreview> = {};
    for (const id of ids) {
      const i = positionOf(id);
      if (i === undefined) continue;
      const e = entries[i]!;
      if (this.refs[i] === e) {
        out[id] = this.all[i]!;
        continue;
      }
      const hit = b.made.get(i);
      if (hit && hit.ref === e) {
        b.made.delete(i);
        b.made.set(i, hit);
        out[id] = hit.preview;
        continue;
      }
      const preview = this.previewOne(e);
      const bytes = sizeOf(preview);
      if (hit) b.bytes -= hit.bytes;
      b.made.delete(i);
      b.made.set(i, { ref: e, preview, bytes });
      b.bytes += bytes;
      for (const [k, v] of b.made) {
        if (b.bytes <= maxBytes) break;
        b.made.delete(k);
        b.bytes -= v.bytes;
      }
      out[id] = preview;
    }
    return out;
  }
}

/**
 * What the index alone tells of an entry, without reading its body: a message's role, the target
 * of a leaf / label / context_edit, a compaction's checkpoint. An entry whose body is already in
 * memory (a file parsed eagerly) gets its whole preview.
 */
export function indexPreview(e: Entry): EntryPreview {
  if (!isIndexedEntry(e)) return previewOf(e);
  const out: EntryPreview = { preview: '' };
  if (e.type === 'message') {
    const role = e.role;
    if (role !== undefined) out.role = role;
  } else if (e.type === 'leaf' || e.type === 'label' || e.type === 'context_edit') {
    const t = e.targetId;
    out.targetId = typeof t === 'string' ? t : null;
  } else if (e.type === 'compaction') {
    const f = e.facts;
    if (f && 'retainedTail' in f) {
      const firstKept = typeof f.firstKeptEntryId === 'string' && f.firstKeptEntryId ? f.firstKeptEntryId : undefined;
      out.checkpoint = f.retainedTail ? 'retained-tail' : firstKept ? 'first-kept' : 'none';
      if (firstKept) out.firstKeptEntryId = firstKept;
    }
  }
  return out;
}
