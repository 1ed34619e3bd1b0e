// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../renderer/src/ui/Markdown';
import { loadHighlighter } from '../../renderer/src/ui/highlight';
import { EntryBody } from '../../renderer/src/features/inspector/EntryBody';
import { SessionsPanel } from '../../renderer/src/features/sessions/SessionsPanel';
import { fakeElementBox, flush, mount, type Mounted } from './dom';
import { fakeApi, listOf, row, summary } from './fake-api';

// happy-dom does no layout: a viewport-sized box so the virtualizer shows rows.
fakeElementBox(280, 600);

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});
const api = () => fakeApi({ 'session.open': async () => ({ ok: false, error: { code: 'not_found', message: 'x' } }), 'sessions.summaries': async () => ({ ok: true, data: {} }) }).api;

describe('markdown', () => {
  it('draws a GFM table as a table and raw HTML as text', async () => {
    m = await mount(<Markdown text={'| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror="alert(1)"> <b>bold?</b>\n\n[link](https://example.com)'} />, api());
    const table = m.container.querySelector('table');
    expect(table).not.toBeNull();
    expect([...table!.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['1', '2']);
    expect(m.container.querySelector('img')).toBeNull();
    expect(m.container.querySelector('b')).toBeNull();
    expect(m.container.textContent).toContain('<img src=x onerror="alert(1)">');
    // Links are inert: no anchor to follow.
    expect(m.container.querySelector('a')).toBeNull();
    expect(m.container.querySelector('.md-link')?.getAttribute('title')).toBe('https://example.com');
  });

  it('highlights a fenced block once highlight.js has loaded', async () => {
    m = await mount(<Markdown text={'```ts\nconst x: number = 1; // <b>\n```'} />, api());
    await act(async () => {
      await loadHighlighter();
    });
    await flush();
    const pre = m.container.querySelector('pre.code-block')!;
    expect(pre.getAttribute('data-highlighted')).toBe('true');
    expect(pre.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(pre.querySelector('b')).toBeNull();
    expect(pre.textContent).toContain('// <b>');
  });
});

describe('edit call', () => {
  it('shows an edit call as a diff of old → new text', async () => {
    const raw = {
      type: 'message',
      message: { role: 'assistant', content: [{ type: 'toolCall', id: 't1', name: 'edit', arguments: { path: 'a.ts', edits: [{ oldText: 'let a = 1;\nkeep', newText: 'let a = 2;\nkeep' }] } }] },
    };
    m = await mount(<EntryBody raw={raw} />, api());
    const diff = m.container.querySelector('[data-testid="edit-call-diff"] [data-testid="diff"]')!;
    const lines = [...diff.querySelectorAll('.diff-line')].map((l) => [l.className.replace('diff-line ', ''), l.textContent]);
    expect(lines).toEqual([
      ['del', '-let a = 1;'],
      ['add', '+let a = 2;'],
      ['ctx', ' keep'],
    ]);
  });
});

describe('session list keyboard', () => {
  it('moves with arrows, Home and End, and opens with Enter', async () => {
    const rows = [
      row('s-1', '/p', { modifiedAt: '2026-01-03T00:00:00Z', summary: summary('first', null) }),
      row('s-2', '/p', { modifiedAt: '2026-01-02T00:00:00Z', summary: summary('second', null) }),
      row('s-3', '/p', { modifiedAt: '2026-01-01T00:00:00Z', summary: summary('third', null) }),
    ];
    m = await mount(<SessionsPanel />, api(), (s) => s.getState().setSessionList(listOf(rows)));
    const list = m.container.querySelector<HTMLElement>('[data-testid="session-list"]')!;
    const press = (key: string) => act(async () => void list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));
    const cursor = () => m!.container.querySelector('.virtual-row.cursor [data-testid="session-row"]')?.getAttribute('data-session-id') ?? m!.container.querySelector('.virtual-row.cursor [data-testid="project-row"]')?.textContent;
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
