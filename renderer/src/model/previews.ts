/**
 * An entry's preview line has two sources: the graph answer carries it for a graph read whole, and a
 * `pending` graph (drawn from the index of a big file) gets it later in batches (`lazyPreviews` in the
 * store). This is the one place that joins them: components ask here, never the two sources.
 */
import type { EntryPreviewDto } from '../lib/shared';

export type LazyPreviews = Readonly<Record<string, EntryPreviewDto>>;

/** The entry's preview text, from the graph or a later batch ('' when neither has it yet). */
export function previewText(entry: { id: string; preview: string }, lazy: LazyPreviews): string {
  return entry.preview || lazy[entry.id]?.preview || '';
}

/** Whether a pending graph's entry still waits for its preview batch. */
export function previewMissing(entry: { id: string; preview: string }, lazy: LazyPreviews, pending: boolean): boolean {
  return pending && !entry.preview && lazy[entry.id] === undefined;
}
