/**
 * The timing of watch batches, apart from fs events so it can be tested on a fake clock: a lone
 * event after a quiet spell is delivered after `leadingMs`; a burst is coalesced until `debounceMs`
 * of quiet, but never held longer than `maxWaitMs`.
 */
export interface BatchTiming {
  debounceMs: number;
  maxWaitMs: number;
  leadingMs: number;
}

export interface Batcher {
  /** Something changed: deliver it with the next batch. */
  touch(): void;
  /** Drop what is pending; `deliver` is never called again. */
  close(): void;
}

export function createBatcher(timing: BatchTiming, deliver: () => void): Batcher {
  const { debounceMs, maxWaitMs, leadingMs } = timing;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstPendingAt = 0;
  let lastFlushAt = -Infinity;
  let leading = false;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    lastFlushAt = Date.now();
    if (!closed) deliver();
  };

  return {
    touch() {
      if (closed) return;
      const now = Date.now();
      if (timer === undefined) {
        firstPendingAt = now;
        // Leading edge: nothing was delivered lately, so this is not part of a burst yet.
        leading = now - lastFlushAt >= debounceMs;
        timer = setTimeout(flush, leading ? leadingMs : debounceMs);
        return;
      }
      if (leading) return; // due within leadingMs anyway; later events join the trailing batch
      clearTimeout(timer);
      timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstPendingAt + maxWaitMs - now)));
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
