// @vitest-environment happy-dom
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionsPanel } from '../../../renderer/src/features/sessions/SessionsPanel';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi, listOf, row, summary } from '../fake-api';

// happy-dom does no layout: give elements a viewport-sized box so the virtualizer shows rows.
const saved = {
  h: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
  w: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth'),
};
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 280 });
});
afterAll(() => {
  if (saved.h) Object.defineProperty(HTMLElement.prototype, 'clientHeight', saved.h);
  if (saved.w) Object.defineProperty(HTMLElement.prototype, 'clientWidth', saved.w);
});

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const rows = [
  row('s-1', '/home/alice/proj', { modifiedAt: '2026-01-03T00:00:00Z' }),
  row('s-2', '/home/alice/proj', {
    parentSessionId: 's-1',
    parentSessionPath: '/x/s-1.jsonl',
    summary: summary('Named fork', 'hi', 12),
  }),
  row('s-3', '/srv/other', { modifiedAt: '2026-01-01T00:00:00Z' }),
];

describe('SessionsPanel', () => {
  it('lists projects and session rows with ids, titles, fork markers, and asks summaries for visible rows', async () => {
    const f = fakeApi({
      'sessions.summaries': async ({ sessionIds }) => ({
        ok: true,
        data: Object.fromEntries(sessionIds.map((id) => [id, summary(null, `first of ${id}`, 7)])),
      }),
      'session.open': async () => ({ ok: false, error: { code: 'not_found', message: 'x' } }),
    });
    m = await mount(<SessionsPanel />, f.api, (store) => store.getState().setSessionList(listOf(rows)));
    await flush(150);

    const found = [...m.container.querySelectorAll<HTMLElement>('[data-testid="session-row"]')].map(
      (el) => el.dataset.sessionId,
    );
    expect(found).toEqual(['s-1', 's-2', 's-3']);
    expect(m.container.querySelectorAll('[data-testid="project-row"]')).toHaveLength(2);
    const forked = m.container.querySelector('[data-session-id="s-2"]')!;
    expect(forked.textContent).toContain('Named fork');
    expect(forked.querySelector('[data-testid="fork-marker"]')).not.toBeNull();
    expect(m.container.querySelector('[data-session-id="s-1"] [data-testid="fork-marker"]')).toBeNull();

    const asked = f.calls
      .filter((c) => c.channel === 'sessions.summaries')
      .flatMap((c) => (c.args as { sessionIds: string[] }).sessionIds);
    expect(asked.sort()).toEqual(['s-1', 's-3']); // s-2 came with its summary
    expect(m.container.querySelector('[data-session-id="s-1"]')!.textContent).toContain('first of s-1');
    expect(m.container.querySelector('[data-session-id="s-1"]')!.textContent).toContain('7 entries');
  });

  it('marks a damaged session (issues seen by its summary) with one titled element', async () => {
    const damaged = [
      row('d-1', '/p', { summary: { ...summary('Torn', 'q'), issueCount: 2 } }),
      row('d-2', '/p', { summary: summary('Clean', 'q') }),
    ];
    m = await mount(<SessionsPanel />, fakeApi({}).api, (store) => store.getState().setSessionList(listOf(damaged)));
    await flush(50);
    const marker = m.container.querySelector<HTMLElement>('[data-session-id="d-1"] [data-testid="damage-marker"]');
    expect(marker?.title).toContain('2 damaged lines');
    expect(m.container.querySelector('[data-session-id="d-2"] [data-testid="damage-marker"]')).toBeNull();
  });

  it('shows where a fork branched (the last message it copied), on forks only', async () => {
    const forks = [
      row('p-1', '/p', { summary: { ...summary(null, 'plan the parser'), branchedAfter: 'not shown here' } }),
      row('f-1', '/p', {
        parentSessionId: 'p-1',
        parentSessionPath: '/p/p-1.jsonl',
        summary: {
          ...summary(null, 'plan the parser'),
          ownFirstMessage: 'try **recursion**',
          branchedAfter: 'write the `lexer`',
        },
      }),
    ];
    m = await mount(<SessionsPanel />, fakeApi({}).api, (store) => store.getState().setSessionList(listOf(forks)));
    await flush(50);
    const fork = m.container.querySelector<HTMLElement>('[data-session-id="f-1"]')!;
    expect(fork.querySelector('[data-testid="branched-after"]')?.textContent).toBe('after “write the lexer”');
    expect(fork.title).toContain('branched after “write the lexer”');
    expect(fork.textContent).toContain('try recursion');
    expect(m.container.querySelector('[data-session-id="p-1"] [data-testid="branched-after"]')).toBeNull();
  });

  it('filters rows and opens a session on click', async () => {
    const f = fakeApi({ 'session.open': async () => ({ ok: false, error: { code: 'not_found', message: 'gone' } }) });
    m = await mount(<SessionsPanel />, f.api, (store) => store.getState().setSessionList(listOf(rows)));
    await act(async () => m!.store.getState().setSessionQuery('other'));
    const ids = [...m.container.querySelectorAll<HTMLElement>('[data-testid="session-row"]')].map(
      (el) => el.dataset.sessionId,
    );
    expect(ids).toEqual(['s-3']);
    await act(async () => m!.container.querySelector<HTMLElement>('[data-session-id="s-3"]')!.click());
    expect(m.store.getState().openSessionId).toBe('s-3');
    expect(
      f.calls.some((c) => c.channel === 'session.open' && (c.args as { sessionId: string }).sessionId === 's-3'),
    ).toBe(true);
  });

  it('draws only the rows in view (virtualized)', async () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      row(`m-${i}`, '/big', { modifiedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() }),
    );
    const f = fakeApi({ 'sessions.summaries': async () => ({ ok: true, data: {} }) });
    m = await mount(<SessionsPanel />, f.api, (store) => store.getState().setSessionList(listOf(many)));
    const drawn = m.container.querySelectorAll('[data-testid="session-row"]').length;
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(60);
  });

  it('shows progress while listing', async () => {
    const f = fakeApi({});
    m = await mount(<SessionsPanel />, f.api, (store) => store.getState().setListing(true));
    expect(m.container.querySelector('[data-testid="listing-progress"]')).not.toBeNull();
  });
});

const keyApi = () =>
  fakeApi({
    'session.open': async () => ({ ok: false, error: { code: 'not_found', message: 'x' } }),
    'sessions.summaries': async () => ({ ok: true, data: {} }),
  }).api;

describe('session list keyboard', () => {
  it('moves with arrows, Home and End, and opens with Enter', async () => {
    const rows = [
      row('s-1', '/p', { modifiedAt: '2026-01-03T00:00:00Z', summary: summary('first', null) }),
      row('s-2', '/p', { modifiedAt: '2026-01-02T00:00:00Z', summary: summary('second', null) }),
      row('s-3', '/p', { modifiedAt: '2026-01-01T00:00:00Z', summary: summary('third', null) }),
    ];
    m = await mount(<SessionsPanel />, keyApi(), (s) => s.getState().setSessionList(listOf(rows)));
    const list = m.container.querySelector<HTMLElement>('[data-testid="session-list"]')!;
    const press = (key: string) =>
      act(async () => void list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    const cursor = () =>
      m!.container.querySelector('.virtual-row.cursor [data-testid="session-row"]')?.getAttribute('data-session-id') ??
      m!.container.querySelector('.virtual-row.cursor [data-testid="project-row"]')?.textContent;
    await press('ArrowDown'); // the project heading
    await press('ArrowDown');
    expect(cursor()).toBe('s-1');
    await press('End');
    expect(cursor()).toBe('s-3');
    await press('ArrowUp');
    expect(cursor()).toBe('s-2');
    await press('Enter');
    expect(m.store.getState().openSessionId).toBe('s-2');
    await press('Home');
    await press('Enter'); // folds the project
    expect(m.store.getState().collapsedProjects['/p']).toBe(true);
    expect(list.getAttribute('aria-activedescendant')).toMatch(/^session-row-/);
  });
});
