/**
 * One-line previews of every entry (what a graph node draws) and the usage each entry records (the
 * cost ledgers), for an indexed session whose bodies are on disk: computed in one sequential pass
 * over the file (not one random read per entry), kept with the session's entry list, and extended
 * for appended entries only.
 */
import { BodyError, isIndexedEntry, type Entry, type IndexedEntry, type ParsedSession } from '../core';
import { isPlainRecord } from '../core/parse';
import { entryUsageFact, usageFactOf, usageRecordOf, type UsageFact } from '../core/cost-ledger';
import { PREVIEW_SKIM_KEYS, previewEntry, type EntryPreview } from '../core/entry-preview';
import { JsonSkimmer } from '../core/json-skim';
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
