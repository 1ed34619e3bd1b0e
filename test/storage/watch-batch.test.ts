import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from '../../electron/storage/watch-batch';

// The batch timing on a fake clock: the real-time watch tests only check what is delivered.
describe('createBatcher', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  const setup = () => {
    const at: number[] = [];
    const b = createBatcher({ debounceMs: 400, maxWaitMs: 1000, leadingMs: 10 }, () => at.push(Date.now()));
    return { b, at };
  };

  it('delivers a lone event after leadingMs (leading edge)', () => {
    const { b, at } = setup();
    b.touch();
    vi.advanceTimersByTime(9);
    expect(at).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(at).toEqual([1_000_010]);
  });

  it('coalesces a burst after a delivery into one trailing batch', () => {
    const { b, at } = setup();
    b.touch();
    vi.advanceTimersByTime(10);
    for (let i = 0; i < 10; i++) {
      b.touch();
      vi.advanceTimersByTime(20);
    }
    expect(at).toHaveLength(1);
    vi.advanceTimersByTime(400);
    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBe(200 + 380);
  });

  it('events within the leading window join its batch', () => {
    const { b, at } = setup();
    b.touch();
    vi.advanceTimersByTime(5);
    b.touch();
    b.touch();
    vi.advanceTimersByTime(1000);
    expect(at).toHaveLength(1);
  });

  it('never holds a steady stream longer than maxWaitMs', () => {
    const { b, at } = setup();
    b.touch();
    vi.advanceTimersByTime(10); // leading delivery
    const started = Date.now();
    for (let i = 0; i < 100; i++) {
      b.touch();
      vi.advanceTimersByTime(50);
    }
    // 5 s of events every 50 ms: a batch at least every maxWaitMs, not one at the end.
    expect(at.length - 1).toBeGreaterThanOrEqual(4);
    for (let i = 2; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeLessThanOrEqual(1000);
    expect(at[1]! - started).toBeLessThanOrEqual(1000);
  });

  it('after a quiet spell the next event is a leading edge again', () => {
    const { b, at } = setup();
    b.touch();
    vi.advanceTimersByTime(10);
    vi.advanceTimersByTime(400);
    b.touch();
    vi.advanceTimersByTime(10);
    expect(at).toEqual([1_000_010, 1_000_420]);
  });

  it('drops a pending batch on close and ignores later events', () => {
    const { b, at } = setup();
    b.touch();
    b.close();
    b.touch();
    vi.advanceTimersByTime(5000);
    expect(at).toEqual([]);
  });
});
