// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildContextView, readSessionDetailed } from '../../../electron/core';
import type { ForkPreviewDto, ForkRequestDto } from '../../../electron/shared/context-dto';
import { ForkResult } from '../../../renderer/src/features/fork/ForkResult';
import { InspectorPane } from '../../../renderer/src/shell/panes';
import { PREVIEW_REST_MS, REST_BEFORE_PREVIEW_BYTES } from '../../../renderer/src/features/fork/ForkPanel';
import { fixture, fixtureSession, FIXTURE_LINES, lineage, okPreview } from '../context-fixtures';
import { flush, mount, type Mounted } from '../dom';
import { fakeApi, listOf, row } from '../fake-api';
import { graphToWire } from '../../../electron/shared/entry-nodes';

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

const REFUSED: ForkPreviewDto = {
  ok: false,
  error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' },
};

function rawOf(id: string): Record<string, unknown> {
  return FIXTURE_LINES.find((l) => l.id === id)!;
}

async function inspect(entryId: string, extra: Parameters<typeof fakeApi>[0] = {}, sizeBytes?: number) {
  const fixed = fixture();
  const graph = sizeBytes === undefined ? fixed.graph : { ...fixed.graph, sizeBytes };
  const { view } = fixed;
  const f = fakeApi({
    'session.forkPreview': async ({ request }) => ({
      ok: true,
      data: request.kind === 'fork' && request.position === 'before' && entryId !== 'u2' ? REFUSED : okPreview(7),
    }),
    'session.fork': async () => ({
      ok: true,
      data: {
        sessionId: 's2',
        path: '/sessions/new.jsonl',
        command: "pi --session '/sessions/new.jsonl'",
        entryCount: 7,
        leafId: 'a1',
      },
    }),
    'sessions.list': async () => ({
      ok: true,
      data: listOf([row('s1', '/p'), row('s2', '/p', { parentSessionId: 's1' })]),
    }),
    'session.open': async ({ sessionId }) => ({ ok: true, data: graphToWire({ ...graph, sessionId }) }),
    'session.context': async ({ sessionId }) => ({ ok: true, data: { ...view, sessionId } }),
    'session.lineage': async ({ sessionId }) => ({ ok: true, data: lineage({ sessionId }) }),
    ...extra,
  });
  m = await mount(
    <>
      <ForkResult />
      <InspectorPane />
    </>,
    f.api,
    (store) => {
      store.getState().startOpening('s1');
      store.getState().setGraph(graph);
      store.getState().setContextView(view);
      store.getState().select(entryId);
      store.getState().setDetail({ sessionId: 's1', entryId, line: 3, raw: rawOf(entryId), label: null, children: [] });
    },
  );
  await flush(10);
  const q = <T extends Element = HTMLElement>(sel: string) => m!.container.querySelector<T>(sel);
  const forkCalls = () =>
    f.calls.filter((c) => c.channel === 'session.fork').map((c) => c.args as { request: ForkRequestDto });
  return { f, q, forkCalls };
}

describe('ForkPanel', () => {
  it('in a big session, previews only once a selection has rested', async () => {
    const { f } = await inspect('a1', {}, REST_BEFORE_PREVIEW_BYTES);
    const previews = () =>
      f.calls
        .filter((c) => c.channel === 'session.forkPreview')
        .map((c) => (c.args as { request: { entryId?: string } }).request.entryId);
    expect(previews()).toEqual([]);
    await act(async () => {
      m!.store.getState().select('u2');
      m!.store
        .getState()
        .setDetail({ sessionId: 's1', entryId: 'u2', line: 4, raw: rawOf('u2'), label: null, children: [] });
    });
    await flush(PREVIEW_REST_MS / 2);
    expect(previews()).toEqual([]);
    await flush(PREVIEW_REST_MS + 50);
    expect(previews()).toEqual(['u2']);
  });

  it('defaults to pi’s /fork (before) on a user message and previews before writing', async () => {
    const { q, f } = await inspect('u2');
    expect(q('[data-testid="fork-panel"]')!.dataset.mode).toBe('before');
    expect(f.calls.find((c) => c.channel === 'session.forkPreview')!.args).toEqual({
      sessionId: 's1',
      request: { kind: 'fork', entryId: 'u2', position: 'before' },
    });
    const preview = q('[data-testid="fork-preview"]')!;
    expect(preview.dataset.status).toBe('ok');
    expect(preview.textContent).toContain(okPreview().fileName);
    expect(q('[data-testid="fork-entry-count"]')!.dataset.count).toBe('7');
    expect(q<HTMLButtonElement>('[data-testid="fork-button"]')!.disabled).toBe(false);
    expect(f.calls.some((c) => c.channel === 'session.fork')).toBe(false);
  });

  it('explains a refused target and keeps the write button disabled', async () => {
    const { q, forkCalls } = await inspect('a1');
    expect(q('[data-testid="fork-panel"]')!.dataset.mode).toBe('at'); // not a user message
    await act(async () => q<HTMLButtonElement>('[data-fork-mode="before"]')!.click());
    await flush(10);
    const preview = q('[data-testid="fork-preview"]')!;
    expect(preview.dataset.status).toBe('refused');
    expect(preview.textContent).toContain('Invalid entry ID for forking');
    const button = q<HTMLButtonElement>('[data-testid="fork-button"]')!;
    expect(button.disabled).toBe(true);
    await act(async () => button.click());
    expect(forkCalls()).toEqual([]);
  });

  it('writes the fork, opens the new session and shows the command to continue in pi', async () => {
    const { q, forkCalls, f } = await inspect('a1');
    await act(async () => q<HTMLButtonElement>('[data-testid="fork-button"]')!.click());
    await flush(20);
    expect(forkCalls()).toEqual([{ sessionId: 's1', request: { kind: 'fork', entryId: 'a1', position: 'at' } }]);
    expect(m!.store.getState().openSessionId).toBe('s2');
    const result = q('[data-testid="fork-result"]')!;
    expect(result.dataset.sessionId).toBe('s2');
    expect(q('[data-testid="fork-command"]')!.textContent).toBe(
      "cd '/home/alice/proj' && pi --session '/sessions/new.jsonl'",
    );
    // The fork's answer is all the list needs: no listing is asked for.
    expect(f.calls.filter((c) => c.channel === 'sessions.list')).toHaveLength(0);
    // Forked at an assistant entry: no message goes back to pi's editor.
    expect(q('[data-testid="fork-editor-text"]')).toBeNull();
  });

  it('after a fork before a user message, offers that message to copy (pi puts it back in its editor)', async () => {
    const { q } = await inspect('u2');
    await act(async () => q<HTMLButtonElement>('[data-testid="fork-button"]')!.click());
    await flush(20);
    const offered = q('[data-testid="fork-editor-text"]')!;
    const text = (rawOf('u2').message as { content: unknown }).content;
    const expected = typeof text === 'string' ? text : (text as { text: string }[]).map((b) => b.text).join('\n');
    expect(offered.textContent).toContain(expected.slice(0, 40));
  });

  it('clone copies the current branch without naming an entry', async () => {
    const { q, f } = await inspect('a1');
    await act(async () => q<HTMLButtonElement>('[data-fork-mode="clone"]')!.click());
    await flush(10);
    expect(f.calls.filter((c) => c.channel === 'session.forkPreview').at(-1)!.args).toEqual({
      sessionId: 's1',
      request: { kind: 'clone' },
    });
    expect(q('[data-testid="fork-button"]')!.textContent).toBe('Write clone');
  });
});

describe('Entry context card and compaction inspector', () => {
  it('says why an entry is not sent, with a link to what decided it', async () => {
    const { q } = await inspect('a1');
    const s = fixtureSession();
    const state = buildContextView(s, readSessionDetailed(s)).entries.find((e) => e.id === 'a1')!;
    const card = q('[data-testid="entry-context-state"]')!;
    expect(card.dataset.state).toBe(state.state);
    expect(state.state).toBe('summarised');
    expect(card.textContent).toContain(state.reason);
    expect(card.querySelector('.entry-link')!.textContent).toBe(state.by);
  });

  it('shows a compaction beside what it replaced, and highlights its hidden entries', async () => {
    const { q } = await inspect('c1');
    const s = fixtureSession();
    const info = buildContextView(s, readSessionDetailed(s)).compactions[0]!;
    const ci = q('[data-testid="compaction-inspector"]')!;
    expect(ci.dataset.active).toBe('true');
    expect(ci.textContent).toContain('5,000');
    expect(ci.textContent).toContain('a.ts');
    expect(ci.textContent).toContain('b.ts');
    expect(q('[data-testid="compaction-hidden"]')!.dataset.count).toBe(String(info.hiddenIds.length));
    await act(async () => q<HTMLButtonElement>('[data-testid="highlight-hidden"]')!.click());
    expect(m!.store.getState().highlight?.ids).toEqual(info.hiddenIds);
    await act(async () => q<HTMLButtonElement>('[data-testid="compaction-compare-open"]')!.click());
    const compare = q('[data-testid="compaction-compare"]')!;
    expect(compare.textContent).toContain('Fix the slow test');
    expect(compare.textContent).toContain(`Replaced · ${info.hiddenIds.length}`);
    await act(async () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })));
    expect(q('[data-testid="compaction-compare"]')).toBeNull();
  });

  it('"what if this were the leaf?" asks for the context there and shows it', async () => {
    const { q, f } = await inspect('y1');
    await act(async () => q<HTMLButtonElement>('[data-testid="what-if-leaf"]')!.click());
    await flush(10);
    expect(m!.store.getState().whatIfLeaf).toEqual({ entryId: 'y1' });
    expect(m!.store.getState().rightTab).toBe('context');
    expect(f.calls.filter((c) => c.channel === 'session.context').at(-1)!.args).toEqual({
      sessionId: 's1',
      leafId: 'y1',
    });
  });
});
