// @vitest-environment happy-dom
/**
 * The search panel when a query stops at its budget: it says so, and "Search everything" asks the
 * same query again with `complete`, showing that it is searching meanwhile.
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
  it('offers Search everything when a query stopped early, and asks again complete', async () => {
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    const f = fakeApi({
      'search.query': async (args): Promise<{ ok: true; data: SearchResultDto }> => {
        if (!args.complete) return { ok: true, data: { hits: [hit(3)], more: true, cut: true, status } };
        await slow;
        return { ok: true, data: { hits: [hit(3), hit(9)], more: false, cut: false, status } };
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
    expect(statusText()).toContain('stopped early');
    await act(async () => m!.container.querySelector<HTMLButtonElement>('[data-testid="search-everything"]')!.click());
    await flush(300);
    expect(statusText()).toContain('searching everything');
    release();
    await flush(50);
    expect(statusText()).toContain('2 hits in 1 session');
    expect(statusText()).not.toContain('stopped early');
    const asked = f.calls.filter((c) => c.channel === 'search.query').map((c) => c.args);
    expect(asked.at(-1)).toEqual({ query: 'needle', limit: 200, complete: true });
    expect(asked.slice(0, -1).every((a) => !(a as { complete?: boolean }).complete)).toBe(true);
  });
});
