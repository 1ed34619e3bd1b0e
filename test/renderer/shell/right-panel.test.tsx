// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { RightPanel } from '../../../renderer/src/shell/RightPanel';
import { fixture } from '../context-fixtures';
import { mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('RightPanel', () => {
  it('switches between the entry and the context, showing the total on the tab', async () => {
    const { graph, view } = fixture();
    m = await mount(<RightPanel />, fakeApi({}).api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph(graph);
      store.getState().setContextView(view);
    });
    const pageOf = (sel: string) => m!.container.querySelector(sel)!.closest<HTMLElement>('.tab-page')!;
    expect(pageOf('[data-testid="inspector"]').hidden).toBe(false);
    expect(pageOf('[data-testid="context-panel"]').hidden).toBe(true);
    expect(m.container.querySelector('[data-testid="tab-context"]')!.textContent).toContain(`${view.tokens.total} tok`);
    await act(async () => m!.container.querySelector<HTMLButtonElement>('[data-testid="tab-context"]')!.click());
    expect(pageOf('[data-testid="inspector"]').hidden).toBe(true);
    expect(pageOf('[data-testid="context-panel"]').hidden).toBe(false);
    expect(m.container.querySelector('[data-testid="tab-context"]')!.getAttribute('aria-selected')).toBe('true');
    expect(m.container.querySelectorAll('[data-testid="context-entry"]').length).toBeGreaterThan(0);
  });
});
