// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphPanel, issuesSummary } from '../../../renderer/src/features/graph/GraphPanel';
import type { EntryNodeDto, SessionGraphDto } from '../../../electron/shared/dto';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi } from '../fake-api';
import { graphOf, lines, node } from '../helpers';

fakeElementBox(1000, 700);

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

function sample(): SessionGraphDto {
  const entries: EntryNodeDto[] = lines([
    node('u1', null, { preview: 'first question' }),
    node('a1', 'u1', { role: 'assistant', hasText: true, preview: 'answer' }),
    node('c1', 'a1', { type: 'compaction', role: undefined, checkpoint: 'retained-tail', preview: 'summary one' }),
    node('u2', 'c1', { preview: 'second question' }),
    node('c2', 'u2', {
      type: 'compaction',
      role: undefined,
      checkpoint: 'first-kept',
      firstKeptEntryId: 'u2',
      preview: 'summary two',
    }),
    node('a2', 'c2', { role: 'assistant', hasText: true, preview: 'final answer' }),
    node('x1', 'a1', { preview: 'abandoned branch' }),
    node('m1', 'u2', { type: 'model_change', role: undefined, preview: 'gpt-5' }),
  ]);
  return {
    ...graphOf(entries, {
      leafId: 'a2',
      pathIds: ['c1', 'u2', 'c2', 'a2'],
      profile: 'h3',
      detectedProfile: 'h3',
      labels: { u2: 'important' },
    }),
    sessionId: 's1',
  };
}

const attrs = (root: HTMLElement) =>
  Object.fromEntries(
    [...root.querySelectorAll<HTMLElement>('.react-flow__node')].map((n) => [
      n.dataset.id,
      {
        kind: n.dataset.kind === 'entry' ? n.dataset.entryKind : n.dataset.kind,
        onPath: n.dataset.onPath ?? null,
        checkpoint: n.dataset.checkpoint ?? null,
      },
    ]),
  );

describe('GraphPanel', () => {
  it('draws entry nodes with data-id, data-kind, data-on-path and data-checkpoint', async () => {
    const f = fakeApi({});
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph(sample());
    });
    await flush(50);
    const a = attrs(m.container);
    expect(a.u1).toEqual({ kind: 'user', onPath: null, checkpoint: null });
    expect(a.a1).toEqual({ kind: 'assistant', onPath: null, checkpoint: null });
    expect(a.c1).toEqual({ kind: 'compaction', onPath: 'true', checkpoint: 'retained-tail' });
    expect(a.c2).toEqual({ kind: 'compaction', onPath: 'true', checkpoint: 'first-kept' });
    expect(a.a2).toEqual({ kind: 'assistant', onPath: 'true', checkpoint: null });
    expect(a.x1).toEqual({ kind: 'user', onPath: null, checkpoint: null });
    expect(a.m1).toBeUndefined(); // model changes are hidden by the default filter
    expect(m.container.querySelector('[data-id="u2"] [data-testid="label-badge"]')!.textContent).toContain('important');
    expect(m.container.querySelector('[data-testid="graph-panel"]')!.getAttribute('data-profile')).toBe('h3');
  });

  it('switches filters and shows the issues banner with line numbers', async () => {
    const f = fakeApi({});
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store
        .getState()
        .setGraph({ ...sample(), issues: [{ line: 7, kind: 'invalid_json', message: 'line is not JSON' }] });
    });
    await act(async () => m!.store.getState().setFilterMode('all'));
    await flush(20);
    expect(attrs(m.container).m1?.kind).toBe('model_change');
    await act(async () => m!.store.getState().setFilterMode('user-only'));
    await flush(20);
    expect(Object.keys(attrs(m.container)).sort()).toEqual(['a2', 'u1', 'u2', 'x1']); // + the leaf, always shown
    const issues = m.container.querySelector('[data-testid="issues"]')!;
    expect(issues.textContent).toContain('1 issue');
    expect(issues.textContent).toContain('line 7');
  });

  it('lists long lines as notes, not as warnings', async () => {
    const long = { line: 2, kind: 'line_too_long', message: 'line 2 is 4533567 characters long' };
    m = await mount(<GraphPanel />, fakeApi({}).api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph({ ...sample(), issues: [long, { ...long, line: 4 }] });
    });
    await flush(20);
    const issues = m.container.querySelector('[data-testid="issues"]')!;
    expect(issues.textContent).toContain('2 notes on this file');
    expect(issues.textContent).not.toContain('⚠');
    expect(issues.classList.contains('notes-only')).toBe(true);
    expect(issuesSummary([long, { line: 7, kind: 'invalid_json', message: 'x' }])).toBe(
      '⚠ 1 issue in this file · 1 note',
    );
  });

  it('clicking a node selects it and asks for the entry', async () => {
    const f = fakeApi({
      'entry.get': async ({ sessionId, entryId }) => ({
        ok: true,
        data: { sessionId, entryId, line: 3, raw: {}, label: null, children: [] },
      }),
    });
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph(sample());
    });
    await flush(20);
    await act(async () => m!.container.querySelector<HTMLElement>('.react-flow__node[data-id="x1"]')!.click());
    expect(m.store.getState().selectedEntryId).toBe('x1');
    expect(f.calls.at(-1)).toEqual({ channel: 'entry.get', args: { sessionId: 's1', entryId: 'x1' } });
  });
});
