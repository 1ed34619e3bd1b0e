// @vitest-environment happy-dom
/**
 * Progress of a long open and listing, and cancelling an open: the store follows main's progress
 * events, the graph panel shows them with a Cancel button, and a cancelled open can be retried.
 */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../electron/shared/errors';
import { graphToWire } from '../../../electron/shared/entry-nodes';
import { GraphPanel } from '../../../renderer/src/features/graph/GraphPanel';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { fixture } from '../context-fixtures';
import { fakeElementBox, flush, mount, type Mounted } from '../dom';
import { fakeApi, listOf, row } from '../fake-api';

fakeElementBox(1000, 700);

const ok = <T,>(data: T): Result<T> => ({ ok: true, data });
const MiB = 1024 * 1024;

/** session.open answers only when the test says so (per call, in order). */
function pendingOpens() {
  const waiting: Array<(r: Result<ReturnType<typeof graphToWire>>) => void> = [];
  const open = () => new Promise<Result<ReturnType<typeof graphToWire>>>((resolve) => waiting.push(resolve));
  return { open, waiting };
}

let m: Mounted | null = null;
afterEach(() => {
  m?.unmount();
  m = null;
});

describe('open and listing progress (store)', () => {
  it("follows the open session's progress only, cancels an open left for another session, and keeps `cancelled` as the open error", async () => {
    const opens = pendingOpens();
    const f = fakeApi({
      'session.open': opens.open,
      'session.cancelOpen': async () => ok({ cancelled: true }),
      'sessions.list': async () => ok(listOf([row('s1', '/p'), row('s2', '/p')])),
    });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const s = () => store.getState();
    const calls = (channel: string) => f.calls.filter((c) => c.channel === channel).map((c) => c.args);
    const off = actions.subscribeEvents();

    void actions.openSession('s1');
    await vi.waitFor(() => expect(calls('session.open')).toHaveLength(1));
    f.emit('session.progress', { sessionId: 's1', phase: 'index', done: MiB, total: 4 * MiB });
    f.emit('session.progress', { sessionId: 'other', phase: 'index', done: 3 * MiB, total: 4 * MiB });
    expect(s().openProgress).toEqual({ sessionId: 's1', phase: 'index', done: MiB, total: 4 * MiB });

    // Opening s2 while s1 still opens: main is told to stop reading s1.
    const second = actions.openSession('s2');
    await vi.waitFor(() => expect(calls('session.open')).toHaveLength(2));
    expect(calls('session.cancelOpen')).toEqual([{ sessionId: 's1' }]);
    expect(s().openProgress).toBeNull();
    opens.waiting[0]!({ ok: false, error: { code: 'cancelled', message: 'opening the session was cancelled' } });

    await actions.cancelOpen();
    expect(calls('session.cancelOpen')).toEqual([{ sessionId: 's1' }, { sessionId: 's2' }]);
    opens.waiting[1]!({ ok: false, error: { code: 'cancelled', message: 'opening the session was cancelled' } });
    await second;
    expect(s().openSessionId).toBe('s2');
    expect(s().opening).toBe(false);
    expect(s().openError?.code).toBe('cancelled');

    // Nothing is opening: cancel asks main for nothing.
    await actions.cancelOpen();
    expect(calls('session.cancelOpen')).toHaveLength(2);
    off();
  });

  it('shows listing progress while a listing runs, and none after it', async () => {
    let answer: (r: Result<ReturnType<typeof listOf>>) => void = () => {};
    const f = fakeApi({ 'sessions.list': () => new Promise((resolve) => (answer = resolve)) });
    const store = createCanopyStore();
    const actions = createActions(f.api, store);
    const off = actions.subscribeEvents();
    f.emit('sessions.progress', { done: 5, total: 10 });
    expect(store.getState().listProgress).toBeNull(); // no listing running
    const listed = actions.loadSessions();
    f.emit('sessions.progress', { done: 256, total: 10_000 });
    expect(store.getState().listProgress).toEqual({ done: 256, total: 10_000 });
    answer(ok(listOf([row('s1', '/p')])));
    await listed;
    expect(store.getState().listProgress).toBeNull();
    off();
  });
});

describe('GraphPanel while opening', () => {
  it('shows the bytes read with a determinate bar and a Cancel button that asks main to stop', async () => {
    const f = fakeApi({ 'session.cancelOpen': async () => ok({ cancelled: true }) });
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setOpenProgress({ sessionId: 's1', phase: 'index', done: MiB, total: 4 * MiB });
    });
    const box = m.container.querySelector('[data-testid="open-progress"]')!;
    expect(box.textContent).toContain('Indexing the session file…');
    expect(box.textContent).toContain('1.0 MiB of 4.0 MiB');
    expect(box.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')).toBe('25');
    await act(async () =>
      m!.store.getState().setOpenProgress({ sessionId: 's1', phase: 'previews', done: 3 * MiB, total: 4 * MiB }),
    );
    expect(box.textContent).toContain('Reading entries for the graph…');
    await act(async () =>
      (m!.container.querySelector('[data-testid="open-progress-cancel"]') as HTMLButtonElement).click(),
    );
    await flush();
    expect(f.calls.filter((c) => c.channel === 'session.cancelOpen').map((c) => c.args)).toEqual([{ sessionId: 's1' }]);
  });

  it('offers to open a cancelled session again', async () => {
    const { graph } = fixture();
    const f = fakeApi({ 'session.open': async ({ sessionId }) => ok(graphToWire({ ...graph, sessionId })) });
    m = await mount(<GraphPanel />, f.api, (store) => {
      store.getState().startOpening('s1');
      store.getState().setOpenError({ code: 'cancelled', message: 'opening the session was cancelled' });
    });
    const placeholder = m.container.querySelector('[data-testid="open-cancelled"]')!;
    expect(placeholder.textContent).toContain('Opening cancelled');
    await act(async () => (placeholder.querySelector('button') as HTMLButtonElement).click());
    await flush(20);
    expect(f.calls.filter((c) => c.channel === 'session.open').map((c) => c.args)).toEqual([{ sessionId: 's1' }]);
    expect(m.container.querySelector('[data-testid="graph-panel"]')).not.toBeNull();
  });
});
