// @vitest-environment happy-dom
/**
 * The search panel pages through the search slice: the first page shows with a "+" while a cursor
 * remains, "Load more" (or scrolling near the end) asks for the next page with that cursor, and a
 * newer query's answer replaces an older one that answers late.
 */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandsProvider } from '../../../renderer/src/commands/commands-context';
import { CONTRIBUTED, createRegistry } from '../../../renderer/src/commands/registry';
import { SearchPanel } from '../../../renderer/src/features/search/SearchPanel';
import type { SearchHitDto, SearchResultDto } from '../../../electron/shared/dto';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

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

describe('search panel', () => {
  it('shows the first page and loads the next one with its cursor', async () => {
    const f = fakeApi({
      'search.query': async (args): Promise<{ ok: true; data: SearchResultDto }> => {
        if (!args.cursor) return { ok: true, data: { hits: [hit(3)], cursor: 'c1', stopped: null, status } };
        return { ok: true, data: { hits: [hit(9)], cursor: null, stopped: null, status } };
      },
    });
    const registry = createRegistry([]);
    m = await mount(
      <CommandsProvider registry={registry}>
        <SearchPanel />
      </CommandsProvider>,
      f.api,
    );
    await act(async () => void registry.run(CONTRIBUTED.searchSessions.id));
    const input = m.container.querySelector<HTMLInputElement>('[data-testid="search-input"]')!;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(input, 'needle');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await flush(300);
    const statusText = () => m!.container.querySelector('[data-testid="search-status"]')!.textContent;
    expect(statusText()).toContain('1+ hits');
    await act(async () => m!.container.querySelector<HTMLButtonElement>('[data-testid="search-more"]')!.click());
    await flush(50);
    expect(statusText()).toContain('2 hits in 1 session');
    expect(m.container.querySelector('[data-testid="search-more"]')).toBeNull();
    const asked = f.calls.filter((c) => c.channel === 'search.query').map((c) => c.args);
    expect(asked.at(-1)).toEqual({ query: 'needle', limit: 100, cursor: 'c1' });
  });

  it('loads the next page on scrolling near the end, and drops the late answer of a superseded query', async () => {
    let releaseOld: () => void = () => undefined;
    const oldHeld = new Promise<void>((r) => (releaseOld = r));
    const f = fakeApi({
      'search.query': async (args): Promise<{ ok: true; data: SearchResultDto }> => {
        if (args.query === 'old') {
          await oldHeld;
          return { ok: true, data: { hits: [hit(1)], cursor: null, stopped: null, status } };
        }
        if (args.cursor) return { ok: true, data: { hits: [hit(9)], cursor: null, stopped: null, status } };
        return { ok: true, data: { hits: [hit(3), hit(4)], cursor: 'c2', stopped: null, status } };
      },
    });
    const registry = createRegistry([]);
    m = await mount(
      <CommandsProvider registry={registry}>
        <SearchPanel />
      </CommandsProvider>,
      f.api,
    );
    await act(async () => void registry.run(CONTRIBUTED.searchSessions.id));
    const input = m.container.querySelector<HTMLInputElement>('[data-testid="search-input"]')!;
    const type = (text: string) =>
      act(async () => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    await type('old');
    await flush(300);
    await type('new');
    await flush(300);
    releaseOld();
    await flush(50);
    const statusText = () => m!.container.querySelector('[data-testid="search-status"]')!.textContent;
    const shown = () =>
      [...m!.container.querySelectorAll('[data-testid="search-hit"]')].map((b) => b.getAttribute('data-entry-id'));
    expect(statusText()).toContain('2+ hits');
    expect(shown()).toEqual(['e3', 'e4']);
    await act(async () => {
      m!.container.querySelector('[data-testid="search-results"]')!.dispatchEvent(new Event('scroll'));
    });
    await flush(50);
    expect(shown()).toEqual(['e3', 'e4', 'e9']);
    expect(statusText()).toContain('3 hits in 1 session');
  });
});
