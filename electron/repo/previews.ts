/**
 * One-line previews of every entry (what a graph node draws), for an indexed session whose bodies
 * are on disk: computed in one sequential pass over the file (not one random read per entry),
 * kept with the session's entry list, and extended for appended entries only.
 */
import { isIndexedEntry, type Entry, type IndexedEntry, type ParsedSession } from '../core';
import { previewEntry, type EntryPreview } from '../core/entry-preview';
import { decodeBytes, scanLines } from '../storage/line-scan';

interface Cached {
  /** The entry each preview was made for (a provisional last entry may be replaced). */
  refs: Entry[];
  previews: EntryPreview[];
  /** Calls are serialised: each extends what the previous one left. */
  queue: Promise<unknown>;
}

const cache = new WeakMap<Entry[], Cached>();

function safePreview(e: Entry): EntryPreview {
  try {
    return previewEntry(e);
  } catch {
    return { preview: '(unreadable)' };
  }
}

export interface PreviewOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

/** Previews aligned with `s.entries` (index i ↔ entry i). */
export function entryPreviews(path: string, s: ParsedSession, opts: PreviewOptions = {}): Promise<EntryPreview[]> {
  let c = cache.get(s.entries);
  if (!c) cache.set(s.entries, (c = { refs: [], previews: [], queue: Promise.resolve() }));
  const cached = c;
  const run = cached.queue.then(() => extend(path, s.entries, cached, opts));
  cached.queue = run.catch(() => undefined);
  return run;
}

async function extend(path: string, entries: Entry[], c: Cached, opts: PreviewOptions): Promise<EntryPreview[]> {
  let n = c.refs.length;
  while (n > 0 && (n > entries.length || entries[n - 1] !== c.refs[n - 1])) n--;
  c.refs.length = n;
  c.previews.length = n;
  if (n === entries.length) return c.previews.slice();

  const pending = entries.slice(n);
  const out: EntryPreview[] = new Array<EntryPreview>(pending.length);
  if (!pending.every(isIndexedEntry)) {
    for (let k = 0; k < pending.length; k++) out[k] = safePreview(pending[k]!);
  } else {
    const indexed = pending as IndexedEntry[];
    const offsetOf = (e: IndexedEntry): number => e.store.byteRange(e.i).offset;
    let k = 0;
    await scanLines(path, (b, start, end, _line, lineOffset) => {
      if (k >= indexed.length) return;
      // Entries are in file order; a line between them (blank, junk, header) is skipped.
      while (k < indexed.length && offsetOf(indexed[k]!) < lineOffset) {
        out[k] = safePreview(indexed[k]!);
        k++;
      }
      const e = indexed[k];
      if (!e || offsetOf(e) !== lineOffset) return;
      let raw: unknown;
      try {
        raw = JSON.parse(decodeBytes(b, start, end, false));
      } catch {
        raw = undefined;
      }
      const ok = typeof raw === 'object' && raw !== null && (raw as { id?: unknown }).id === e.id;
      out[k] = ok ? previewEntry({ type: e.type, raw } as Entry) : safePreview(e);
      k++;
    }, { fromOffset: offsetOf(indexed[0]!), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) });
    for (; k < indexed.length; k++) out[k] = safePreview(indexed[k]!);
  }
  for (let k = 0; k < pending.length; k++) {
    c.refs.push(pending[k]!);
    c.previews.push(out[k]!);
  }
  return c.previews.slice();
}
