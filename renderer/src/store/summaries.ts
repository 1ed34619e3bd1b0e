/**
 * Session summaries (name, first message, counts) for the sidebar. Rows in view ask for theirs at
 * once (`request`; a session being opened goes first). After each listing, every other session's
 * summary is read in the background (`fill`), newest first, in small batches sent only while no
 * session is opening or loading its context (and not right after), so a search finds sessions by
 * name or first message without holding up what the user asked for. The fill reports how far it
 * got; files over FILL_MAX_BYTES are left to their rows.
 */
import type { Api, SessionRowDto } from '../lib/shared';
import type { Check } from './action-context';
import type { CanopyStore } from './index';

export const SUMMARY_BATCH = 100;
/** Background batches are larger (fewer round trips and re-renders of a 10,000-row sidebar). */
export const FILL_BATCH = 500;
const SUMMARY_DELAY_MS = 80;
/** Background batches read at most this much (a batch is one request main answers before the next). */
export const FILL_BATCH_BYTES = 16 * 1024 * 1024;
/** Bigger files are summarised only when their row is in view (reading one takes seconds). */
export const FILL_MAX_BYTES = 64 * 1024 * 1024;
/** The fill starts, and resumes after a load, only once nothing has loaded for this long. */
export const FILL_QUIET_MS = 500;

export interface Summaries {
  /** Asks for summaries of these sessions soon, in batches, each id at most once per file version. */
  request(sessionIds: readonly string[]): void;
  /** Reads the summaries of the listed sessions not read yet (restarts a fill already running). */
  fill(): Promise<void>;
  /** A new listing: forget what was asked for sessions whose summary did not arrive. */
  relisted(): void;
  stop(): void;
}

export function createSummaries(api: Api, store: CanopyStore, check: Check): Summaries {
  const s = () => store.getState();
  const requested = new Set<string>();
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let fillRun = 0;
  const busy = () => s().opening || s().contextLoading;

  async function ask(ids: string[]): Promise<void> {
    const r = check(await api['sessions.summaries']({ sessionIds: ids }));
    if ('error' in r) for (const id of ids) requested.delete(id);
    else s().mergeSummaries(r.data);
  }

  async function flush() {
    timer = null;
    // A session the user is opening goes first: main reads one file at a time.
    await notBusy();
    const ids = [...pending];
    pending.clear();
    for (let i = 0; i < ids.length; i += SUMMARY_BATCH) await ask(ids.slice(i, i + SUMMARY_BATCH));
  }

  function request(sessionIds: readonly string[]) {
    const have = s().summaries;
    for (const id of sessionIds) {
      if (have[id] || requested.has(id)) continue;
      requested.add(id);
      pending.add(id);
    }
    if (pending.size > 0 && timer === null) timer = setTimeout(() => void flush(), SUMMARY_DELAY_MS);
  }

  /** Resolves once no session is opening and no context is loading. */
  function notBusy(): Promise<void> {
    if (!busy()) return Promise.resolve();
    return new Promise((resolve) => {
      const off = store.subscribe(() => {
        if (busy()) return;
        off();
        resolve();
      });
    });
  }

  /**
   * Resolves when the next background batch may go: nothing is loading, and (`settle`, or after
   * waiting for a load) nothing started for FILL_QUIET_MS, so a graph that just arrived is drawn
   * before main reads more files.
   */
  async function quiet(settle: boolean): Promise<void> {
    for (;;) {
      if (busy()) {
        await notBusy();
        settle = true;
        continue;
      }
      if (!settle) return;
      await new Promise((resolve) => setTimeout(resolve, FILL_QUIET_MS));
      settle = false;
    }
  }

  /** The next background batch from `todo[at]`: ids not asked for yet, up to FILL_BATCH and FILL_BATCH_BYTES. */
  function nextBatch(todo: SessionRowDto[], at: number): { ids: string[]; next: number } {
    const ids: string[] = [];
    let bytes = 0;
    let i = at;
    for (; i < todo.length && ids.length < FILL_BATCH; i++) {
      const row = todo[i]!;
      if (s().summaries[row.sessionId] || requested.has(row.sessionId)) continue;
      if (ids.length > 0 && bytes + row.sizeBytes > FILL_BATCH_BYTES) break;
      ids.push(row.sessionId);
      bytes += row.sizeBytes;
    }
    return { ids, next: i };
  }

  async function fill() {
    const run = ++fillRun;
    const list = s().sessionList;
    const have = s().summaries;
    const todo = (list?.sessions ?? [])
      .filter((r) => !have[r.sessionId] && r.sizeBytes <= FILL_MAX_BYTES)
      .sort((a, b) => (a.modifiedAt < b.modifiedAt ? 1 : a.modifiedAt > b.modifiedAt ? -1 : 0));
    if (todo.length === 0) {
      s().setSummaryFill(null);
      return;
    }
    s().setSummaryFill({ done: 0, total: todo.length });
    let at = 0;
    while (at < todo.length) {
      await quiet(at === 0);
      if (run !== fillRun) return;
      const { ids, next } = nextBatch(todo, at);
      at = next;
      for (const id of ids) requested.add(id);
      if (ids.length > 0) await ask(ids);
      if (run !== fillRun) return;
      s().setSummaryFill({ done: at, total: todo.length });
    }
    s().setSummaryFill(null);
  }

  return {
    request,
    fill,
    relisted: () => {
      const have = s().summaries;
      for (const id of [...requested]) if (!have[id]) requested.delete(id);
    },
    stop: () => {
      fillRun++;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
