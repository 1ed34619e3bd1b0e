// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildContextView, readSession, readSessionDetailed } from '../../../electron/core';
import { ContextPanel } from '../../../renderer/src/features/context/ContextPanel';
import { fixture, fixtureSession } from '../context-fixtures';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

async function show(opts: { leafId?: string } = {}) {
  const { graph, view } = fixture(opts);
  const f = fakeApi({
    'entry.get': async ({ sessionId, entryId }) => ({
      ok: true,
      data: { sessionId, entryId, line: 2, raw: { type: 'message', id: entryId }, label: null, children: [] },
    }),
    'session.context': async () => ({ ok: true, data: fixture().view }),
  });
  m = await mount(<ContextPanel />, f.api, (store) => {
    store.getState().startOpening('s1');
    store.getState().setGraph(graph);
    if (opts.leafId) store.getState().setWhatIfLeaf(opts.leafId);
    store.getState().setContextView(view);
  });
  return { f, el: m.container.querySelector<HTMLElement>('[data-testid="context-panel"]')! };
}

const rows = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[data-testid="context-entry"]')];

describe('ContextPanel', () => {
  it('lists one row per context entry in pi’s order, with states, reasons and nested messages', async () => {
    const { el } = await show();
    const s = fixtureSession();
    const expected = readSession(s).contextEntryIds;
    const core = buildContextView(s, readSessionDetailed(s));
    expect(rows(el).map((r) => r.dataset.entryId)).toEqual(expected);
    expect(expected[0]).toBe('c1'); // the compaction's summary opens the context
    const states = new Map(core.entries.map((e) => [e.id, e]));
    for (const r of rows(el)) expect(r.dataset.state).toBe(states.get(r.dataset.entryId!)!.state);

    const bash = rows(el).find((r) => r.dataset.entryId === 'b1')!;
    expect(bash.dataset.state).toBe('excluded');
    expect(bash.textContent).toContain(states.get('b1')!.reason);
    expect(bash.querySelectorAll('[data-testid="context-message"]')).toHaveLength(0);

    // Every message pi sends appears once, in order, under its entry.
    const shown = [...el.querySelectorAll<HTMLElement>('[data-testid="context-message"]')].map((x) =>
      Number(x.dataset.index),
    );
    expect(shown).toEqual(core.messages.map((x) => x.index));
    const compaction = rows(el)[0]!;
    expect(compaction.textContent).toContain('compactionSummary → user');
    expect(el.querySelector('[data-testid="context-total"]')!.textContent).toContain(
      core.tokens.total.toLocaleString('en-US'),
    );
    expect(el.querySelector('[data-testid="extensions-note"]')!.textContent).toContain(
      'Extensions can still rewrite a request',
    );
  });

  it('shows the derived state with its sources; a source selects its entry', async () => {
    const { el } = await show();
    const model = el.querySelector<HTMLElement>('[data-testid="state-model"]')!;
    expect(model.textContent).toContain('anthropic / claude-x');
    const source = model.querySelector<HTMLButtonElement>('.entry-link')!;
    expect(source.textContent).toBe('a3');
    await act(async () => source.click());
    expect(m!.store.getState().selectedEntryId).toBe('a3');
    expect(el.querySelector('[data-testid="state-thinking"]')!.textContent).toContain("pi's default");
    expect(el.querySelector('[data-testid="state-system"]')!.textContent).toContain('No system message');
  });

  it('keeps the two cost ledgers side by side and never adds them up', async () => {
    const { el } = await show();
    const table = el.querySelector<HTMLTableElement>('[data-testid="cost-ledgers"]')!;
    const cost = [...table.querySelectorAll('tbody tr')].find((r) => r.querySelector('th')!.textContent === 'cost')!;
    const cells = [...cost.querySelectorAll('td')].map((c) => c.textContent);
    expect(cells).toEqual(['$0.030', '$0.040']); // a1+a2+a3 on the path; y1 only in all branches
    expect(table.textContent).not.toContain('$0.070');
    expect(el.querySelector('[data-testid="last-usage"]')!.textContent).toContain('a3');
  });

  it('clicking a row selects its entry; the selected row is marked', async () => {
    const { el } = await show();
    const row = rows(el).find((r) => r.dataset.entryId === 'u3')!;
    await act(async () => row.click());
    expect(m!.store.getState().selectedEntryId).toBe('u3');
    await flush();
    expect(
      rows(el)
        .find((r) => r.dataset.entryId === 'u3')!
        .classList.contains('selected'),
    ).toBe(true);
  });

  it('at a what-if leaf: says so, lists that context, and goes back on request', async () => {
    const { el, f } = await show({ leafId: 'y1' });
    expect(el.dataset.leafId).toBe('y1');
    expect(rows(el).map((r) => r.dataset.entryId)).toEqual(
      readSession(fixtureSession(), { leafId: 'y1' }).contextEntryIds,
    );
    expect(el.querySelector('[data-testid="context-leaf"]')!.textContent).toContain('what if');
    await act(async () => el.querySelector<HTMLButtonElement>('[data-testid="what-if-reset"]')!.click());
    await flush();
    expect(m!.store.getState().whatIfLeaf).toBeNull();
    expect(f.calls.filter((c) => c.channel === 'session.context').at(-1)!.args).toEqual({ sessionId: 's1' });
  });

  it('lists the compactions on the path; "highlight" marks their hidden entries', async () => {
    const { el } = await show();
    const section = el.querySelector('[data-testid="context-compactions"]')!;
    expect(section.textContent).toContain('c1');
    await act(async () => section.querySelector<HTMLButtonElement>('.link-button')!.click());
    const s = fixtureSession();
    const hidden = buildContextView(s, readSessionDetailed(s)).compactions[0]!.hiddenIds;
    expect(hidden.length).toBeGreaterThan(0);
    expect(m!.store.getState().highlight?.ids).toEqual(hidden);
  });
});
