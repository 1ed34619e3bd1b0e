// @vitest-environment happy-dom
/**
 * The search panel pages through the search slice: a full first page shows with a "+" while a cursor
 * remains, "Load more" (or scrolling near the end) asks for the next page with that cursor, a page
 * answered early (short, with a cursor) is continued at once, and a newer query's answer replaces
 * an older one that answers late.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandsProvider } from '../../../renderer/src/commands/commands-context';
import { CONTRIBUTED, createRegistry } from '../../../renderer/src/commands/registry';
import { SearchPanel } from '../../../renderer/src/features/search/SearchPanel';
import type { SearchHitDto, SearchResultDto } from '../../../electron/shared/dto';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';
import { SEARCH_PAGE } from '../../../renderer/src/store/search-actions';

let m: Mounted | undefined;
afterEach(() => {
  m?.unmount();
  m = undefined;
});

const status = { indexing: false, done: 1, total: 1, indexPath: null, problems: 0, error: null };
const hit = (line: number): SearchHitDto => ({
  sessionId: 's1',
  entryId: `e${line}`,
  line,
  role: 'user',
  field: 'text',
  time: null,
  snippet: 'a needle here',
  match: [2, 8],
  sessionName: 'one',
  cwd: '/p',
  fileName: 's1.jsonl',
});

/** Hits on lines from..to (a full page is SEARCH_PAGE of them). */
const hits = (from: number, to: number): SearchHitDto[] =>
  Array.from({ length: to - from + 1 }, (_, i) => hit(from + i));
const page = (h: SearchHitDto[], cursor: string | null): { ok: true; data: SearchResultDto } => ({
  ok: true,
  data: { hits: h, cursor, stopped: null, status },
});

/** The panel open over `api`, and a way to type a query into it. */
async function openPanel(api: ReturnType<typeof fakeApi>['api']) {
  const registry = createRegistry([]);
  m = await mount(
    <CommandsProvider registry={registry}>
      <SearchPanel />
    </CommandsProvider>,
    api,
  );
  await act(async () => void registry.run(CONTRIBUTED.searchSessions.id));
  const mounted = m;
  const input = mounted.container.querySelector<HTMLInputElement>('[data-testid="search-input"]')!;
  return {
    type: (text: string) =>
      act(async () => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    statusText: () => mounted.container.querySelector('[data-testid="search-status"]')!.textContent,
    shown: () =>
      [...mounted.container.querySelectorAll('[data-testid="search-hit"]')].map((b) => b.getAttribute('data-entry-id')),
  };
}

describe('search panel', () => {
  it('shows a full first page and loads the next one with its cursor', async () => {
    const f = fakeApi({
      'search.query': async (args) => (args.cursor ? page([hit(900)], null) : page(hits(1, SEARCH_PAGE), 'c1')),
    });
    const p = await openPanel(f.api);
    await p.type('needle');
    await flush(300);
    expect(p.statusText()).toContain(`${SEARCH_PAGE}+ hits`);
    await act(async () => m!.container.querySelector<HTMLButtonElement>('[data-testid="search-more"]')!.click());
    await flush(50);
    expect(p.statusText()).toContain(`${SEARCH_PAGE + 1} hits in 1 session`);
    expect(m!.container.querySelector('[data-testid="search-more"]')).toBeNull();
    const asked = f.calls.filter((c) => c.channel === 'search.query').map((c) => c.args);
    expect(asked.at(-1)).toEqual({ query: 'needle', limit: SEARCH_PAGE, cursor: 'c1' });
  });

  it('continues a page answered early (short, with a cursor) at once, until a full page or the end', async () => {
    const f = fakeApi({
      'search.query': async (args) =>
        !args.cursor
          ? page([hit(1)], 'c1')
          : args.cursor === 'c1'
            ? page([hit(2), hit(3)], 'c2')
            : page([hit(4)], null),
    });
    const p = await openPanel(f.api);
    await p.type('needle');
    await flush(300);
    expect(p.shown()).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(p.statusText()).toContain('4 hits in 1 session');
    const asked = f.calls
      .filter((c) => c.channel === 'search.query')
      .map((c) => (c.args as { cursor?: string }).cursor ?? null);
    expect(asked).toEqual([null, 'c1', 'c2']);
  });

  it('loads the next page on scrolling near the end, and drops the late answer of a superseded query', async () => {
    let releaseOld: () => void = () => undefined;
    const oldHeld = new Promise<void>((r) => (releaseOld = r));
    const f = fakeApi({
      'search.query': async (args) => {
        if (args.query === 'old') {
          await oldHeld;
          return page([hit(1)], null);
        }
        return args.cursor ? page([hit(900)], null) : page(hits(3, SEARCH_PAGE + 2), 'c2');
      },
    });
    const p = await openPanel(f.api);
    await p.type('old');
    await flush(300);
    await p.type('new');
    await flush(300);
    releaseOld();
    await flush(50);
    expect(p.statusText()).toContain(`${SEARCH_PAGE}+ hits`);
    expect(p.shown()[0]).toBe('e3');
    await act(async () => {
      m!.container.querySelector('[data-testid="search-results"]')!.dispatchEvent(new Event('scroll'));
    });
    await flush(50);
    expect(p.shown().at(-1)).toBe('e900');
    expect(p.statusText()).toContain(`${SEARCH_PAGE + 1} hits in 1 session`);
  });
});
