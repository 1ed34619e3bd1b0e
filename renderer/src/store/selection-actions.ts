import type { EntryDetailDto, PayloadPageDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

export interface SelectionActions {
  /** Selects an entry (null: none) and reads its detail; `focus` also centres the graph on it. */
  selectEntry(entryId: string | null, opts?: { focus?: boolean }): void;
  /** A page of a heavy payload of an entry (entry.payload; offset undefined: where the cut ends); throws its error. */
  payloadPage(at: { sessionId: string; entryId: string; payloadId: string; offset?: number }): Promise<PayloadPageDto>;
  /** One entry's body (entry.get) without selecting it: the transcript reads the rows in view. */
  readEntry(sessionId: string, entryId: string): Promise<Outcome<EntryDetailDto>>;
}

export function createSelectionActions({ api, s, check }: ActionContext): SelectionActions {
  let detailSeq = 0;

  async function loadDetail(entryId: string) {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++detailSeq;
    const r = check(await api['entry.get']({ sessionId, entryId }));
    if (seq !== detailSeq) return;
    if ('error' in r) s().setDetailError(r.error);
    else s().setDetail(r.data);
  }

  function selectEntry(entryId: string | null, opts: { focus?: boolean } = {}) {
    s().select(entryId);
    if (entryId === null) return;
    if (opts.focus) s().requestFocus(entryId);
    void loadDetail(entryId);
  }

  async function payloadPage(at: { sessionId: string; entryId: string; payloadId: string; offset?: number }) {
    const r = await api['entry.payload'](at);
    if (!r.ok) throw new Error(r.error.message);
    return r.data;
  }

  async function readEntry(sessionId: string, entryId: string) {
    return check(await api['entry.get']({ sessionId, entryId }));
  }

  return { selectEntry, payloadPage, readEntry };
}
