import type { StateCreator } from 'zustand/vanilla';
import type { ErrorValue, SessionListDto, SessionRowDto, SessionsChangeDto, SessionSummaryDto } from '../lib/shared';
import type { CanopyState } from './index';

export type SessionSort = 'modified' | 'activity' | 'created' | 'name' | 'size' | 'entries' | 'cost';
export const SESSION_SORTS: readonly SessionSort[] = [
  'modified',
  'activity',
  'created',
  'name',
  'size',
  'entries',
  'cost',
];

export interface SessionsSlice {
  sessionList: SessionListDto | null;
  listing: boolean;
  /** Session files read so far by the running listing (reported once it takes a while). */
  listProgress: { done: number; total: number } | null;
  /** How far the background reading of summaries got (null: not running). */
  summaryFill: { done: number; total: number } | null;
  listError: ErrorValue | null;
  /** sessionId → summary, from list rows and `sessions.summaries` batches. */
  summaries: Record<string, SessionSummaryDto>;
  sessionQuery: string;
  sessionSort: SessionSort;
  /** false: one flat list across projects, in the sort order. */
  groupByProject: boolean;
  collapsedProjects: Record<string, true>;

  setListing(listing: boolean): void;
  setListProgress(progress: { done: number; total: number }): void;
  setSummaryFill(progress: { done: number; total: number } | null): void;
  setSessionList(list: SessionListDto): void;
  /** Patches the list with one change of the store (sessions.changed): no listing is asked for. */
  applySessionsChange(change: SessionsChangeDto): void;
  setListError(error: ErrorValue | null): void;
  mergeSummaries(summaries: Record<string, SessionSummaryDto>): void;
  setSessionQuery(query: string): void;
  setSessionSort(sort: SessionSort): void;
  setGroupByProject(group: boolean): void;
  toggleProject(cwd: string): void;
}

/**
 * The summaries of `rows`: their own, else the one held while the file is unchanged (a changed
 * file's row arrives with summary null: its stale summary is dropped so it is asked again).
 */
function summariesOf(state: CanopyState, rows: readonly SessionRowDto[]): Record<string, SessionSummaryDto> {
  const summaries: Record<string, SessionSummaryDto> = {};
  const previous = new Map(state.sessionList?.sessions.map((s) => [s.sessionId, s]) ?? []);
  for (const row of rows) {
    if (row.summary) summaries[row.sessionId] = row.summary;
    else {
      const before = previous.get(row.sessionId);
      const old = state.summaries[row.sessionId];
      if (old && before && before.sizeBytes === row.sizeBytes && before.modifiedAt === row.modifiedAt)
        summaries[row.sessionId] = old;
    }
  }
  return summaries;
}

export const createSessionsSlice: StateCreator<CanopyState, [], [], SessionsSlice> = (set) => ({
  sessionList: null,
  listing: false,
  listProgress: null,
  summaryFill: null,
  listError: null,
  summaries: {},
  sessionQuery: '',
  sessionSort: 'modified',
  groupByProject: true,
  collapsedProjects: {},

  setListing: (listing) => set({ listing, listProgress: null }),
  setListProgress: (progress) => set((state) => (state.listing ? { listProgress: progress } : {})),
  setSummaryFill: (summaryFill) => set({ summaryFill }),
  setSessionList: (list) =>
    set((state) => ({ sessionList: list, summaries: summariesOf(state, list.sessions), listError: null })),
  applySessionsChange: (change) =>
    set((state) => {
      const list = state.sessionList;
      if (!list) return {};
      const gone = new Set(change.removed);
      const fresh = new Map([...change.changed, ...change.added].map((r) => [r.sessionId, r]));
      const sessions: SessionRowDto[] = [];
      for (const row of list.sessions) {
        if (gone.has(row.sessionId)) continue;
        sessions.push(fresh.get(row.sessionId) ?? row);
        fresh.delete(row.sessionId);
      }
      sessions.push(...fresh.values());
      const summaries = { ...state.summaries };
      const touched = [...change.changed, ...change.added];
      for (const id of [...change.removed, ...touched.map((r) => r.sessionId)]) delete summaries[id];
      Object.assign(summaries, summariesOf(state, touched));
      return { sessionList: { projects: change.projects, sessions, skipped: change.skipped }, summaries };
    }),
  setListError: (listError) => set({ listError }),
  mergeSummaries: (more) => set((state) => ({ summaries: { ...state.summaries, ...more } })),
  setSessionQuery: (sessionQuery) => set({ sessionQuery }),
  setSessionSort: (sessionSort) => set({ sessionSort }),
  setGroupByProject: (groupByProject) => set({ groupByProject }),
  toggleProject: (cwd) =>
    set((state) => {
      const next = { ...state.collapsedProjects };
      if (next[cwd]) delete next[cwd];
      else next[cwd] = true;
      return { collapsedProjects: next };
    }),
});
