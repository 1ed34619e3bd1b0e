// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchStatusDto } from '../../../electron/shared/dto';
import { SearchIndexProgress } from '../../../renderer/src/features/sessions/SearchIndexProgress';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const status = (indexing: boolean, done: number, total: number): SearchStatusDto => ({
  indexing,
  done,
  total,
  indexPath: null,
  problems: 0,
  error: null,
});

describe('SearchIndexProgress (under the session list)', () => {
  it('shows the pass main reports, follows its progress and goes when it ends', async () => {
    const f = fakeApi({ 'search.status': async () => ({ ok: true, data: status(true, 10, 4000) }) });
    m = await mount(<SearchIndexProgress />, f.api);
    await flush();
    const line = (): HTMLElement | null => m!.container.querySelector('[data-testid="search-index-progress"]');
    expect(line()?.textContent).toMatch(/Indexing for search…\s*10 of 4,000/);
    await act(async () => f.emit('search.progress', status(true, 2500, 4000)));
    expect(line()?.textContent).toMatch(/2,500 of 4,000/);
    await act(async () => f.emit('search.progress', status(false, 4000, 4000)));
    expect(line()).toBeNull();
    m.unmount();
    m = null;
    expect(f.listenerCount()).toBe(0);
  });

  it('shows nothing when no pass runs', async () => {
    const f = fakeApi({ 'search.status': async () => ({ ok: true, data: status(false, 0, 0) }) });
    m = await mount(<SearchIndexProgress />, f.api);
    await flush();
    expect(m.container.querySelector('[data-testid="search-index-progress"]')).toBeNull();
  });
});
