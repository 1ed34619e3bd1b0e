// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CommandLayer } from '../../../renderer/src/features/palette/CommandLayer';
import { CommandsProvider } from '../../../renderer/src/commands/commands-context';
import { createRegistry, type CommandRegistry } from '../../../renderer/src/commands/registry';
import { OVERVIEW_PAD } from '../../../renderer/src/features/graph/GraphOverview';
import { TIP_X } from '../../../renderer/src/features/graph/overview-draw';
import { GraphPanel } from '../../../renderer/src/features/graph/GraphPanel';
import { overviewMarks, stripY } from '../../../renderer/src/features/graph/model/overview';
import { buildGraphView } from '../../../renderer/src/features/graph/model/view';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import type { EntryNodeDto, SessionGraphDto } from '../../../electron/shared/dto';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';
import { graphOf, lines, node, pathTo } from '../helpers';

fakeElementBox(1000, 700);

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

/** Three branches off `a`: the leaf's (l1 → l2), `x` and `y`. */
function sample(): SessionGraphDto {
  const entries: EntryNodeDto[] = lines([
    node('r', null, { preview: 'start' }),
    node('a', 'r', { role: 'assistant', hasText: true, preview: 'pick one' }),
    node('l1', 'a', { preview: 'the one kept' }),
    node('l2', 'l1', { role: 'assistant', hasText: true, preview: 'kept answer' }),
    node('x', 'a', { preview: 'first abandoned' }),
    node('y', 'a', { preview: 'second abandoned' }),
  ]);
  return { ...graphOf(entries, { leafId: 'l2', pathIds: pathTo(entries, 'l2') }), sessionId: 's1' };
}

async function mountGraph(registry?: CommandRegistry) {
  const f = fakeApi({
    'entry.get': async ({ sessionId, entryId }) => ({
      ok: true,
      data: { sessionId, entryId, line: 3, raw: {}, label: null, children: [] },
    }),
  });
  const ui = registry ? (
    <CommandsProvider registry={registry}>
      <CommandLayer />
      <GraphPanel />
    </CommandsProvider>
  ) : (
    <GraphPanel />
  );
  m = await mount(ui, f.api, (store) => {
    store.getState().setMinimap('on');
    store.getState().startOpening('s1');
    store.getState().setGraph(sample());
  });
  await flush(50);
  return m;
}

/** Where the overview draws a tip, in the strip's pixels (700 px tall here). */
function tipPoint(graph: SessionGraphDto, entryId: string) {
  const index = buildTreeIndex(graph.entries, graph.leafId);
  const view = buildGraphView(graph, index, {
    filterMode: 'default',
    showLeafRecords: false,
    expanded: new Set(),
    selectedId: null,
  });
  const marks = overviewMarks(view, graph.leafId);
  const tip = marks.tips.find((t) => t.entryId === entryId)!;
  return { x: TIP_X, y: stripY({ total: marks.total, height: 700, pad: OVERVIEW_PAD }, tip.at) };
}

const press = (key: string) =>
  act(async () => void window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })));

describe('branch tips', () => {
  it('a click on a tip mark in the overview selects its entry and centres it', async () => {
    const mm = await mountGraph();
    const overview = mm.container.querySelector('[data-testid="graph-overview"]')!;
    expect(overview.getAttribute('data-tips')).toBe('3');
    const box = overview;
    const r = overview.getBoundingClientRect();
    const p = tipPoint(sample(), 'x');
    await act(
      async () =>
        void box.dispatchEvent(
          new MouseEvent('mousedown', { bubbles: true, button: 0, clientX: r.left + p.x, clientY: r.top + p.y }),
        ),
    );
    await flush(20);
    expect(mm.store.getState().selectedEntryId).toBe('x');
    expect(mm.store.getState().focusRequest?.nodeId).toBe('x');
    // Away from every mark the click pans and selects nothing new.
    await act(
      async () =>
        void box.dispatchEvent(
          new MouseEvent('mousedown', {
            bubbles: true,
            button: 0,
            clientX: r.left + 1,
            clientY: r.top + 699,
          }),
        ),
    );
    await act(async () => void window.dispatchEvent(new MouseEvent('mouseup')));
    expect(mm.store.getState().selectedEntryId).toBe('x');
  });

  it('] and [ walk the tips in tree order from the selection', async () => {
    const mm = await mountGraph(createRegistry());
    const sel = () => mm.store.getState().selectedEntryId;
    await press(']');
    expect(sel()).toBe('l2');
    await press(']');
    expect(sel()).toBe('x');
    await press(']');
    expect(sel()).toBe('y');
    await press(']');
    expect(sel()).toBe('l2');
    await press('[');
    expect(sel()).toBe('y');
  });

  it('"Go to branch tip…" lists the tips with their last message and jumps to the one picked', async () => {
    const registry = createRegistry();
    const mm = await mountGraph(registry);
    await act(async () => void registry.run('graph.goToTip'));
    await flush(20);
    const items = [...mm.container.ownerDocument.querySelectorAll<HTMLElement>('[data-testid="tip-item"]')];
    expect(items.map((i) => i.dataset.id)).toEqual(['l2', 'x', 'y']);
    expect(items[2]!.textContent).toContain('second abandoned');
    expect(items[0]!.textContent).toContain('leaf');
    await act(async () => void items[2]!.click());
    await flush(20);
    expect(mm.store.getState().selectedEntryId).toBe('y');
    expect(mm.container.ownerDocument.querySelector('[data-testid="tip-picker"]')).toBeNull();
  });
});

describe('flags progress', () => {
  it('shows how far the flags pass got while the graph is pending, and says the filter is not ready', async () => {
    const f = fakeApi({});
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph({ ...sample(), pending: true });
    });
    await flush(20);
    const s = m.store.getState;
    expect(m.container.querySelector('[data-testid="flags-progress"]')).not.toBeNull();
    await act(async () => s().setOpenProgress({ sessionId: 's1', phase: 'previews', done: 30, total: 120 }));
    expect(s().openProgress).toBeNull();
    expect(
      m.container.querySelector('[data-testid="flags-progress"] [role="progressbar"]')!.getAttribute('aria-valuenow'),
    ).toBe('25');
    expect(m.container.querySelector('[data-testid="filter-not-ready"]')!.textContent).toContain('25%');
    const option = [...m.container.querySelectorAll('[data-testid="filter-mode"] option')].map((o) => o.textContent);
    expect(option).toContain('Default (not ready yet)');
    expect(option).toContain('All');
    // Another session's progress is not this one's.
    await act(async () => s().setOpenProgress({ sessionId: 'other', phase: 'previews', done: 110, total: 120 }));
    expect(s().flagsProgress?.done).toBe(30);
    await act(async () => s().setGraph(sample()));
    expect(s().flagsProgress).toBeNull();
    expect(m.container.querySelector('[data-testid="flags-progress"]')).toBeNull();
    expect(m.container.querySelector('[data-testid="filter-not-ready"]')).toBeNull();
  });
});
