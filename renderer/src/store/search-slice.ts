import type { StateCreator } from 'zustand/vanilla';
import type { SearchHitDto, SearchStatusDto } from '../lib/shared';
import type { CanopyState } from './index';

/** The cross-session search: the query shown, its hits so far, and the cursor that continues it. */
export interface SearchSlice {
  searchQuery: string;
  /** Every hit of the pages read so far, in the index's order (newest first). */
  searchHits: SearchHitDto[];
  /** Continues the query (null: every hit is shown, or nothing asked yet). */
  searchCursor: string | null;
  /** A page is being read. */
  searchLoading: boolean;
  /** The query has an answer (false: typing, or not asked yet). */
  searchAnswered: boolean;
  /** Why the last page stopped early (a regex stopped), or null. */
  searchStopped: string | null;
  searchError: string | null;
  /** The index build's progress (null before main answered). */
  searchStatus: SearchStatusDto | null;

  setSearchQuery(query: string): void;
  /** A page arrived: the first replaces the hits, a later one adds to them. */
  setSearchPage(page: { hits: SearchHitDto[]; cursor: string | null; stopped: string | null }, first: boolean): void;
  setSearchLoading(loading: boolean): void;
  setSearchError(error: string | null): void;
  setSearchStatus(status: SearchStatusDto): void;
}

export const createSearchSlice: StateCreator<CanopyState, [], [], SearchSlice> = (set) => ({
  searchQuery: '',
  searchHits: [],
  searchCursor: null,
  searchLoading: false,
  searchAnswered: false,
  searchStopped: null,
  searchError: null,
  searchStatus: null,

  setSearchQuery: (searchQuery) =>
    set(
      searchQuery.trim() === ''
        ? {
            searchQuery,
            searchHits: [],
            searchCursor: null,
            searchAnswered: false,
            searchError: null,
            searchStopped: null,
          }
        : { searchQuery },
    ),
  setSearchPage: (page, first) =>
    set((st) => ({
      searchHits: first ? page.hits : [...st.searchHits, ...page.hits],
      searchCursor: page.cursor,
      searchStopped: page.stopped,
      searchAnswered: true,
      searchError: null,
    })),
  setSearchLoading: (searchLoading) => set({ searchLoading }),
  setSearchError: (searchError) => set({ searchError, searchCursor: null }),
  setSearchStatus: (searchStatus) => set({ searchStatus }),
});
