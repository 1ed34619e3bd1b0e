// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildContextView, readSessionDetailed } from '../../../electron/core';
import { unpackEntryStates } from '../../../electron/shared/entry-states';
import { GraphPane } from '../../../renderer/src/shell/panes';
import { fixture, fixtureSession, lineage } from '../context-fixtures';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';
import { graphToWire } from '../../../electron/shared/entry-nodes';

fakeElementBox(1600, 1400);

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const nodeAttr = (root: HTMLElement, attr: string) =>
  Object.fromEntries(
    [...root.querySelectorAll<HTMLElement>('.react-flow__node')].map((n) => [n.dataset.id, n.getAttribute(attr)]),
  );

async function show(opts: { leafId?: string; lineage?: ReturnType<typeof lineage> } = {}) {
  const { graph, view } = fixture(opts.leafId ? { leafId: opts.leafId } : {});
  const f = fakeApi({
    'session.open': async ({ sessionId }) => ({ ok: true, data: graphToWire({ ...graph, sessionId }) }),
    'session.context': async ({ sessionId }) => ({ ok: true, data: { ...view, sessionId } }),
    'session.lineage': async ({ sessionId }) => ({ ok: true, data: lineage({ sessionId }) }),
  });
  m = await mount(<GraphPane />, f.api, (store) => {
    store.getState().startOpening('s1');
    store.getState().setGraph(graph);
    store.getState().setFilterMode('all');
    if (opts.leafId) store.getState().setWhatIfLeaf(opts.leafId);
    store.getState().setContextView(view);
    if (opts.lineage) store.getState().setLineage(opts.lineage);
  });
  await flush(50);
  return { f, view };
}

describe('GraphPanel with the context view', () => {
  it('puts every node’s context state in data-context, with the reason in its tooltip', async () => {
    const { view } = await show();
    const s = fixtureSession();
    const expected = Object.fromEntries(
      buildContextView(s, readSessionDetailed(s)).entries.map((e) => [e.id, e.state]),
    );
    const shown = nodeAttr(m!.container, 'data-context');
    expect(Object.keys(shown).sort()).toEqual(Object.keys(expected).sort());
    expect(shown).toEqual(expected);
    expect(new Set(Object.values(shown))).toEqual(
      new Set(['included', 'summarised', 'other-branch', 'not-projected', 'excluded']),
    );
    const bash = m!.container.querySelector('.react-flow__node[data-id="b1"] .node')!;
    expect(bash.getAttribute('title')).toContain(unpackEntryStates(view.entries).find((e) => e.id === 'b1')!.reason);
    const legend = m!.container.querySelector('[data-testid="context-legend"]')!;
    expect(legend.textContent).toContain(`summarised ${view.counts.summarised}`);

    await act(async () => legend.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click());
    await flush(20);
    expect(Object.values(nodeAttr(m!.container, 'data-context')).every((v) => v === null)).toBe(true);
  });

  it('marks the what-if leaf and shades by its context', async () => {
    await show({ leafId: 'y1' });
    const what = nodeAttr(m!.container, 'data-what-if-leaf');
    expect(
      Object.entries(what)
        .filter(([, v]) => v === 'true')
        .map(([k]) => k),
    ).toEqual(['y1']);
    const ctx = nodeAttr(m!.container, 'data-context');
    expect(ctx.y1).toBe('included');
    expect(ctx.a3).toBe('other-branch');
    expect(m!.container.querySelector('[data-testid="what-if-chip"]')!.textContent).toContain('y1');
  });

  it('highlights entries asked for (a compaction’s hidden span)', async () => {
    await show();
    await act(async () => m!.store.getState().setHighlight(['u1', 'a1'], 'hidden:c1'));
    await flush(20);
    const hl = nodeAttr(m!.container, 'data-highlight');
    expect(
      Object.entries(hl)
        .filter(([, v]) => v === 'true')
        .map(([k]) => k)
        .sort(),
    ).toEqual(['a1', 'u1']);
  });

  it('flags fork points: a child forked here opens on click, and the parent this session left', async () => {
    const child = {
      sessionId: 'kid',
      fileName: '2026-02-01T10-00-00-000Z_kid.jsonl',
      createdAt: '2026-02-01T10:00:00.000Z',
      forkPointEntryId: 'a2',
    };
    const parent = {
      sessionId: 'mom',
      fileName: '2026-01-01T10-00-00-000Z_mom.jsonl',
      createdAt: '2026-01-01T10:00:00.000Z',
      forkPointEntryId: 'u1',
    };
    const { f } = await show({ lineage: lineage({ children: [child], parent }) });
    const flag = m!.container.querySelector<HTMLButtonElement>(
      '.react-flow__node[data-id="a2"] [data-testid="lineage-child"]',
    )!;
    expect(flag.dataset.sessionId).toBe('kid');
    expect(m!.container.querySelector('.react-flow__node[data-id="u1"] [data-testid="lineage-parent"]')).not.toBeNull();
    expect(m!.container.querySelector('[data-testid="lineage-bar"]')!.textContent).toContain('1 fork');
    await act(async () => flag.click());
    await flush(20);
    expect(f.calls.find((c) => c.channel === 'session.open')!.args).toEqual({ sessionId: 'kid' });
    expect(m!.store.getState().openSessionId).toBe('kid');
    // The node itself was not selected by the flag's click.
    expect(m!.store.getState().selectedEntryId).toBe('a2');
  });
});
