// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from '../../../renderer/src/ui/Markdown';
import { loadHighlighter } from '../../../renderer/src/ui/highlight';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});
const api = () => fakeApi({}).api;

describe('markdown', () => {
  it('draws a GFM table as a table and raw HTML as text', async () => {
    m = await mount(
      <Markdown
        text={
          '| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror="alert(1)"> <b>bold?</b>\n\n[link](https://example.com)'
        }
      />,
      api(),
    );
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
