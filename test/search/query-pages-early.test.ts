/**
 * A page answered early: with `earlyMs`, a page holding a hit answers once it has run that long,
 * with a cursor that continues exactly where it stopped (the app shows hits as they are found).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryPages } from '../../electron/search/query-pages';
import type { HitStream, SearchHit } from '../../electron/search/query';

const hit = (line: number): SearchHit => ({
  sessionId: 's',
  path: '/s.jsonl',
  cwd: '/',
  sessionName: null,
  entryId: `e${line}`,
  line,
  role: 'user',
  time: null,
  field: 'text',
  snippet: 'x',
  match: [0, 1],
});

/** One hit, then `gapMs` of candidates without one (each 1 ms on the fake clock), then a second hit. */
function* slowStream(gapMs: number): HitStream {
  yield hit(1);
  for (let i = 0; i < gapMs; i++) {
    vi.advanceTimersByTime(1);
    yield null;
  }
  yield hit(2);
}

// The page's clock is faked, so the stream's pace, not the machine's load, decides when it answers.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('early pages', () => {
  it('answers the hit it has after earlyMs, and the cursor brings the rest', async () => {
    const pages = new QueryPages();
    const live = pages.start('q', slowStream(1200), false);
    const t0 = performance.now();
    const first = await pages.page(live, 100, 100);
    const took = performance.now() - t0;
    expect(first.hits.map((h) => h.line)).toEqual([1]);
    expect(first.cursor).toBe(live.id);
    // Past earlyMs, within one slice of the page's reading.
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(200);
    const rest = await pages.page(pages.resume(first.cursor!, 'q')!, 100);
    expect(rest.hits.map((h) => h.line)).toEqual([2]);
    expect(rest.cursor).toBeNull();
  });

  it('without earlyMs, a page waits for its limit or the end', async () => {
    const pages = new QueryPages();
    const all = await pages.page(pages.start('q', slowStream(200), false), 100);
    expect(all.hits.map((h) => h.line)).toEqual([1, 2]);
    expect(all.cursor).toBeNull();
  });
});
