import type { KeepRecordDto, SessionRowDto, SessionSummaryDto } from '../lib/shared';
import { plainText } from './session-title';
import type { RankDoc, RankField } from './session-rank';

interface Cached {
  summary: SessionSummaryDto | null;
  keep: KeepRecordDto | undefined;
  doc: RankDoc;
}

// One doc per row while its summary and record stay the same objects: the lower-cased fields
// (session-rank caches them per doc) are then made once, not at every keystroke.
const cache = new WeakMap<SessionRowDto, Cached>();

/** What a session offers a search (list filter, palette): Canopy's name, pi's name, tags, note, id, text, cwd. */
export function sessionDoc(row: SessionRowDto, summary: SessionSummaryDto | null, keep?: KeepRecordDto): RankDoc {
  const known = cache.get(row);
  if (known && known.summary === summary && known.keep === keep) return known.doc;
  const first = summary?.ownFirstMessage || summary?.firstMessage;
  const doc: RankDoc = {
    names: [
      { field: 'name', text: keep?.name ?? '' },
      { field: 'piName', text: summary?.name?.trim() ?? '' },
    ],
    tags: keep?.tags ?? [],
    note: keep?.note ?? '',
    id: row.sessionId,
    text: first ? plainText(first) : row.fileName,
    cwd: row.cwd,
  };
  cache.set(row, { summary, keep, doc });
  return doc;
}

/** Which field a row's title shows (Canopy's name, pi's name, else the text): a match there is marked in the title. */
export function titleField(summary: SessionSummaryDto | null, keep?: KeepRecordDto): RankField {
  return keep?.name ? 'name' : summary?.name?.trim() ? 'piName' : 'text';
}
