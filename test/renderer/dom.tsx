import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll } from 'vitest';
import { AppProvider } from '../../renderer/src/app-context';
import type { Api } from '../../electron/shared/contract';
import { createActions, createCanopyStore, type Actions, type CanopyStore } from '../../renderer/src/store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Mounted {
  container: HTMLElement;
  store: CanopyStore;
  actions: Actions;
  root: Root;
  unmount(): void;
}

/** Renders inside the app's provider with a fresh store around the given Api. */
export async function mount(ui: ReactNode, api: Api, setup?: (store: CanopyStore) => void): Promise<Mounted> {
  const store = createCanopyStore();
  setup?.(store);
  const actions = createActions(api, store);
  const container = document.createElement('div');
  container.style.width = '1000px';
  container.style.height = '700px';
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(<AppProvider services={{ api, store, actions }}>{ui}</AppProvider>);
  });
  return {
    container,
    store,
    actions,
    root,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** happy-dom does no layout: give every element a box, for the calling test file, so react-flow sees a viewport. */
export function fakeElementBox(width: number, height: number): void {
  const props = ['clientWidth', 'clientHeight', 'offsetWidth', 'offsetHeight'] as const;
  const saved = props.map((p) => [p, Object.getOwnPropertyDescriptor(HTMLElement.prototype, p)] as const);
  beforeAll(() => {
    for (const p of props)
      Object.defineProperty(HTMLElement.prototype, p, {
        configurable: true,
        get: () => (p.endsWith('Width') ? width : height),
      });
  });
  afterAll(() => {
    for (const [p, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, p, d);
  });
}

export async function flush(ms = 0): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });
}
