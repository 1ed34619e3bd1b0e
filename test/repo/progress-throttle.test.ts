/** Background passes publish at most ~10 status events a second each; the newest and the last are never lost. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttledStatus } from '../../electron/repo/progress';

describe('throttledStatus', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a status per file for a second is about ten events; the final one at once; the newest always last', () => {
    const sent: Array<{ done: number; running: boolean }> = [];
    const emit = throttledStatus(
      (s: { done: number; running: boolean }) => sent.push(s),
      (s) => !s.running,
      100,
      () => Date.now(),
    );
    for (let done = 1; done <= 1000; done++) {
      emit({ done, running: true });
      vi.advanceTimersByTime(1);
    }
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.length).toBeLessThanOrEqual(11);
    expect(sent[0]!.done).toBe(1);
    emit({ done: 1000, running: false });
    expect(sent.at(-1)).toEqual({ done: 1000, running: false });
    const before = sent.length;
    vi.advanceTimersByTime(1000);
    expect(sent.length).toBe(before); // nothing held back after the end
    // A lone status after a quiet spell goes at once; one right behind it waits for the gap.
    emit({ done: 1, running: true });
    emit({ done: 2, running: true });
    expect(sent.at(-1)).toEqual({ done: 1, running: true });
    vi.advanceTimersByTime(100);
    expect(sent.at(-1)).toEqual({ done: 2, running: true });
  });
});
