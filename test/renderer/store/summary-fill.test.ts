/**
 * The background reading of session summaries after a listing: every session's summary, newest
 * first, in bounded batches, only while nothing the user asked for is loading; with progress.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../../../electron/shared/errors';
import { createActions, createCanopyStore } from '../../../renderer/src/store';
import { FILL_BATCH, FILL_BATCH_BYTES, FILL_MAX_BYTES, FILL_QUIET_MS } from '../../../renderer/src/store/summaries';
import { fakeApi, listOf, row, summary } from '../fake-api';

const ok = <T>(data: T): Result<T> => ({ ok: true, data });
const MiB = 1024 * 1024;

function day(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
}

function setup(rows: ReturnType<typeof row>[]) {
  const asked: string[][] = [];
  const askedAt: number[] = [];
  const fills: Array<{ done: number; total: number } | null> = [];
  const f = fakeApi({
    'sessions.list': async () => ok(listOf(rows)),
    'sessions.summaries': async ({ sessionIds }) => {
      asked.push(sessionIds);
      askedAt.push(performance.now());
      return ok(Object.fromEntries(sessionIds.map((id) => [id, summary(`name of ${id}`, 'hi')])));
    },
  });
  const store = createCanopyStore();
  store.subscribe((st, prev) => {
    if (st.summaryFill !== prev.summaryFill) fills.push(st.summaryFill);
  });
  const actions = createActions(f.api, store);
  return { store, actions, asked, askedAt, fills, s: () => store.getState() };
}

describe('background summaries', () => {
  it('reads every summary after a listing, newest first, in batches bounded by count and bytes; big files are left to their rows', async () => {
    const rows = [
      ...Array.from({ length: 1030 }, (_, i) => row(`s${i}`, '/p', { modifiedAt: day(i), sizeBytes: 10_000 })),
      row('big', '/p', { modifiedAt: day(5000), sizeBytes: FILL_MAX_BYTES + 1 }),
      row('m1', '/q', { modifiedAt: day(4999), sizeBytes: 10 * MiB }),
      row('m2', '/q', { modifiedAt: day(4998), sizeBytes: 10 * MiB }),
    ];
    const { actions, asked, fills, s } = setup(rows);
    await actions.loadSessions();
    await vi.waitFor(() => expect(s().summaryFill).toBeNull(), { timeout: 5000 });
    const all = asked.flat();
    expect(new Set(all).size).toBe(all.length); // nobody asked twice
    expect(all).not.toContain('big');
    expect(all.length).toBe(1032);
    // Newest first: the two 10 MiB files, then s1029, s1028, …
    expect(all.slice(0, 4)).toEqual(['m1', 'm2', 's1029', 's1028']);
    const size = new Map(rows.map((r) => [r.sessionId, r.sizeBytes]));
    for (const batch of asked) {
      expect(batch.length).toBeLessThanOrEqual(FILL_BATCH);
      const bytes = batch.reduce((n, id) => n + size.get(id)!, 0);
      if (batch.length > 1) expect(bytes).toBeLessThanOrEqual(FILL_BATCH_BYTES);
    }
    expect(asked[0]).toEqual(['m1']); // 10 + 10 MiB would pass the byte bound
    expect(fills[0]).toEqual({ done: 0, total: 1032 });
    expect(fills.at(-2)).toEqual({ done: 1032, total: 1032 });
    expect(fills.at(-1)).toBeNull();
    expect(Object.keys(s().summaries)).toHaveLength(1032);
    expect(Math.max(...asked.map((b) => b.length))).toBe(FILL_BATCH);
  });

  it('waits while a session opens: rows in view are asked for right after it, the rest after a quiet moment, none twice', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`s${i}`, '/p', { modifiedAt: day(i) }));
    const { store, actions, asked, askedAt, s } = setup(rows);
    store.getState().startOpening('s0');
    await actions.loadSessions();
    actions.requestSummaries(['s4', 's3']); // rows in view
    await new Promise((r) => setTimeout(r, 150));
    // The open goes first: nothing is asked while it runs.
    expect(asked).toEqual([]);
    expect(s().summaryFill).toEqual({ done: 0, total: 5 });
    const opened = performance.now();
    store.getState().setOpenError({ code: 'cancelled', message: 'x' });
    await vi.waitFor(() => expect(asked).toEqual([['s4', 's3']]));
    await vi.waitFor(() => expect(s().summaryFill).toBeNull(), { timeout: 5000 });
    expect(asked.slice(1).flat()).toEqual(['s2', 's1', 's0']);
    // The fill does not follow at once: the app gets a quiet moment first. A lower bound on the
    // clock (load can only delay the fill), not a sleep racing the timer.
    expect(askedAt[1]! - opened).toBeGreaterThanOrEqual(FILL_QUIET_MS - 5);
  });

  it('a new listing restarts the fill; what is summarised already is not asked again', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => row(`s${i}`, '/p', { modifiedAt: day(i) }));
    const { actions, asked, s } = setup(rows);
    await actions.loadSessions();
    await vi.waitFor(() => expect(s().summaryFill).toBeNull(), { timeout: 5000 });
    await actions.loadSessions();
    await new Promise((r) => setTimeout(r, 20));
    expect(asked.flat().sort()).toEqual(['s0', 's1', 's2']);
    expect(s().summaryFill).toBeNull();
  });
});
