import type { StateCreator } from 'zustand/vanilla';
import type { ErrorValue, SessionListDto, SessionSummaryDto } from '../lib/shared';
import type { CanopyState } from './index';

export type SessionSort = 'modified' | 'created' | 'name' | 'size' | 'entries';
export const SESSION_SORTS: readonly SessionSort[] = ['modified', 'created', 'name', 'size', 'entries'];

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
  setListError(error: ErrorValue | null): void;
  mergeSummaries(summaries: Record<string, SessionSummaryDto>): void;
  setSessionQuery(query: string): void;
  setSessionSort(sort: SessionSort): void;
  setGroupByProject(group: boolean): void;
  toggleProject(cwd: string): void;
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
    set((state) => {
      // Rows of a changed file arrive with summary null: drop the stale summary so it is asked again.
      const summaries: Record<string, SessionSummaryDto> = {};
      const previous = new Map(state.sessionList?.sessions.map((s) => [s.sessionId, s]) ?? []);
      for (const row of list.sessions) {
        if (row.summary) summaries[row.sessionId] = row.summary;
        else {
          const before = previous.get(row.sessionId);
          const old = state.summaries[row.sessionId];
          if (old && before && before.sizeBytes === row.sizeBytes && before.modifiedAt === row.modifiedAt)
            summaries[row.sessionId] = old;
        }
      }
      return { sessionList: list, summaries, listError: null };
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
