/**
 * One-line previews of every entry (what a graph node draws) and the usage each entry records (the
 * cost ledgers), for an indexed session whose bodies are on disk: computed in one sequential pass
 * over the file (not one random read per entry), kept with the session's entry list, and extended
 * for appended entries only.
 */
import { isPlainRecord, entryUsageFact, usageFactOf, usageRecordOf, type UsageFact, PREVIEW_SKIM_KEYS, previewEntry, type EntryPreview, JsonSkimmer, BodyError, isIndexedEntry, type Entry, type IndexedEntry, type ParsedSession } from '../core';
import { decodeBytes, scanLines } from '../storage/line-scan';

interface Cached {
  /** The entry each preview was made for (a provisional last entry may be replaced). */
  refs: Entry[];
  previews: EntryPreview[];
  /** Usage facts; undefined: not gathered in the pass (read from the entry when asked). */
  usages: Array<UsageFact | null | undefined>;
  /** Calls are serialised: each extends what the previous one left. */
  queue: Promise<unknown>;
}

const cache = new WeakMap<Entry[], Cached>();

/**
 * The preview of an entry read on its own. A BodyError is thrown on: the line no longer matches
 * the index (the file changed), or it only looked like pi's and is not JSON (pi's readers drop such
 * a line). withSession answers it by indexing the file again, parsing every line.
 */
function previewOf(e: Entry): EntryPreview {
  try {
    return previewEntry(e);
  } catch (err) {
    if (err instanceof BodyError) throw err;
    return { preview: '(unreadable)' };
  }
}

export interface PreviewOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

/** Previews aligned with `s.entries` (index i ↔ entry i). */
export async function entryPreviews(path: string, s: ParsedSession, opts: PreviewOptions = {}): Promise<EntryPreview[]> {
  return (await bodyFacts(path, s, opts)).previews.slice();
}

/**
 * The usage an entry records (cost-ledger's entryUsageFact), answered from the same pass as the
 * previews; only entries the pass could not read are read on their own.
 */
export async function entryUsages(path: string, s: ParsedSession, opts: PreviewOptions = {}): Promise<(e: Entry) => UsageFact | null> {
  const c = await bodyFacts(path, s, opts);
  // An indexed entry's store index is its position in the entry list, so in `refs` too (the
  // identity check catches a provisional entry replaced since).
  return (e) => {
    const fact = isIndexedEntry(e) && c.refs[e.i] === e ? c.usages[e.i] : undefined;
    return fact === undefined ? entryUsageFact(e) : fact;
  };
}

function bodyFacts(path: string, s: ParsedSession, opts: PreviewOptions): Promise<Cached> {
  let c = cache.get(s.entries);
  if (!c) cache.set(s.entries, (c = { refs: [], previews: [], usages: [], queue: Promise.resolve() }));
  const cached = c;
  const run = cached.queue.then(async () => {
    await extend(path, s.entries, cached, opts);
    return cached;
  });
  cached.queue = run.catch(() => undefined);
  return run;
}

async function extend(path: string, entries: Entry[], c: Cached, opts: PreviewOptions): Promise<void> {
  let n = c.refs.length;
  while (n > 0 && (n > entries.length || entries[n - 1] !== c.refs[n - 1])) n--;
  c.refs.length = n;
  c.previews.length = n;
  c.usages.length = n;
  if (n === entries.length) return;

  const pending = entries.slice(n);
  const out: EntryPreview[] = new Array<EntryPreview>(pending.length);
  const usages: Array<UsageFact | null | undefined> = new Array<UsageFact | null | undefined>(pending.length);
  if (!pending.every(isIndexedEntry)) {
    for (let k = 0; k < pending.length; k++) out[k] = previewOf(pending[k]!);
  } else {
    const indexed = pending as IndexedEntry[];
    const offsetOf = (e: IndexedEntry): number => e.store.byteRange(e.i).offset;
    const skimmer = new JsonSkimmer(decodeBytes, PREVIEW_SKIM_KEYS);
    let k = 0;
    await scanLines(path, (b, start, end, _line, lineOffset) => {
      if (k >= indexed.length) return;
      // Entries are in file order; a line between them (blank, junk, header) is skipped.
      while (k < indexed.length && offsetOf(indexed[k]!) < lineOffset) {
        out[k] = previewOf(indexed[k]!);
        k++;
      }
      const e = indexed[k];
      if (!e || offsetOf(e) !== lineOffset) return;
      // Long texts are cut to what a preview reads (the usage numbers are kept whole).
      const text = skimmer.skim(b, start, end);
      let raw: unknown;
      try {
        raw = text === null ? undefined : JSON.parse(text ?? decodeBytes(b, start, end, false));
      } catch {
        raw = undefined;
      }
      // Only a body that matches the envelope answers for the entry; anything odd is read (and
      // checked) on its own, which throws when the line is not the entry's.
      const body = raw as Record<string, unknown>;
      if (isPlainRecord(raw) && body.id === e.id && body.type === e.type && body.parentId === e.parentId) {
        out[k] = previewEntry({ type: e.type, raw } as Entry);
        usages[k] = usageFactOf(usageRecordOf(e.type, body));
      } else {
        out[k] = previewOf(e);
      }
      k++;
    }, { fromOffset: offsetOf(indexed[0]!), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
    for (; k < indexed.length; k++) out[k] = previewOf(indexed[k]!);
  }
  for (let k = 0; k < pending.length; k++) {
    c.refs.push(pending[k]!);
    c.previews.push(out[k]!);
    c.usages.push(usages[k]);
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

/** Per entry list: previews read one by one (before the pass is done), bounded by bytes, oldest dropped first. */
interface Batches {
  byId: Map<string, number>;
  /** Entries whose ids are in byId. */
  seen: number;
  /** Entry index → [the entry it was made for, preview, its size]; insertion order = age. */
  made: Map<number, { ref: Entry; preview: EntryPreview; bytes: number }>;
  bytes: number;
}
const batches = new WeakMap<Entry[], Batches>();
export const PREVIEW_CACHE_BYTES = 8 * 1024 * 1024;

/** A rough size of a preview in memory (UTF-16 strings plus object overhead). */
function sizeOf(p: EntryPreview): number {
  let n = 96 + p.preview.length * 2;
  for (const t of p.toolNames ?? []) n += 32 + t.length * 2;
  return n + (p.model?.length ?? 0) * 2 + (p.stopReason?.length ?? 0) * 2 + (p.customType?.length ?? 0) * 2;
}

/**
 * The previews of the entries named by `ids` (one per id found; the first entry of an id that
 * occurs twice): from the full pass when it is done, else read one by one and kept in a cache
 * bounded by `maxBytes`.
 */
export function previewsById(s: ParsedSession, ids: readonly string[], maxBytes = PREVIEW_CACHE_BYTES): Record<string, EntryPreview> {
  const entries = s.entries;
  let b = batches.get(entries);
  if (!b || b.seen > entries.length) batches.set(entries, (b = { byId: new Map(), seen: 0, made: new Map(), bytes: 0 }));
  // Ids of appended entries are added as they come (a replaced provisional line keeps its id).
  for (; b.seen < entries.length; b.seen++) if (!b.byId.has(entries[b.seen]!.id)) b.byId.set(entries[b.seen]!.id, b.seen);
  const full = cache.get(entries);
  const out: Record<string, EntryPreview> = {};
  for (const id of ids) {
    const i = b.byId.get(id);
    if (i === undefined) continue;
    const e = entries[i]!;
    if (full && full.refs[i] === e) {
      out[id] = full.previews[i]!;
      continue;
    }
    const hit = b.made.get(i);
    if (hit && hit.ref === e) {
      b.made.delete(i);
      b.made.set(i, hit);
      out[id] = hit.preview;
      continue;
    }
    const preview = previewOf(e);
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
