import type { ActionContext } from './action-context';

/** Hits asked for per page (the panel asks for the next as the user nears the end). */
export const SEARCH_PAGE = 100;

export interface SearchActions {
  /**
   * Asks for `query`'s first page (an empty query clears); main stops the page of any older query.
   * `refresh` (the index grew): only while the same query shows no more than its first page.
   */
  search(query: string, refresh?: boolean): Promise<void>;
  /** The next page of the shown query, when a cursor remains and no page is being read. */
  searchMore(): Promise<void>;
  /** Follows the index build: its status now, then its progress events. Returns the stop. */
  followSearchStatus(): () => void;
}

export function createSearchActions({ api, s, check }: ActionContext): SearchActions {
  // Each ask's number: an answer to an older one (a superseded query or page) is dropped.
  let asked = 0;

  async function search(query: string, refresh = false) {
    if (refresh && query === s().searchQuery && s().searchHits.length > SEARCH_PAGE) return;
    const seq = ++asked;
    s().setSearchQuery(query);
    if (query.trim() === '') {
      s().setSearchLoading(false);
      return;
    }
    s().setSearchLoading(true);
    const r = check(await api['search.query']({ query, limit: SEARCH_PAGE }));
    if (seq !== asked) return;
    s().setSearchLoading(false);
    if ('error' in r) return s().setSearchError(r.error.message);
    s().setSearchPage(r.data, true);
    s().setSearchStatus(r.data.status);
    continueShortPage(r.data);
  }

  // A page answered early (it had hits and ran a while): the rest is asked for at once, so hits
  // stream in; a full page waits for the user to scroll (or Load more).
  function continueShortPage(page: { hits: unknown[]; cursor: string | null }) {
    if (page.cursor && page.hits.length < SEARCH_PAGE) void searchMore();
  }

  async function searchMore() {
    const { searchCursor: cursor, searchQuery: query, searchLoading } = s();
    if (!cursor || searchLoading) return;
    const seq = ++asked;
    s().setSearchLoading(true);
    const r = check(await api['search.query']({ query, limit: SEARCH_PAGE, cursor }));
    if (seq !== asked) return;
    s().setSearchLoading(false);
    if ('error' in r) return s().setSearchError(r.error.message);
    s().setSearchPage(r.data, false);
    continueShortPage(r.data);
  }

  function followSearchStatus() {
    let live = true;
    // A pass may have begun before this: ask once, then follow the events (an event wins over the answer).
    void api['search.status']({}).then((r) => {
      if (live && r.ok && !s().searchStatus) s().setSearchStatus(r.data);
    });
    const off = api.on('search.progress', (status) => s().setSearchStatus(status));
    return () => {
      live = false;
      off();
    };
  }

  return { search, searchMore, followSearchStatus };
}
