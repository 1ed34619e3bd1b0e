/** Progress callbacks that stay silent for fast operations. */

/**
 * Progress only once an operation has been running for `delayMs`, then at most once per `gapMs`
 * (the last call, done === total, always passes).
 */
export function delayedProgress(
  onProgress: ((done: number, total: number) => void) | undefined,
  delayMs = 200,
  gapMs = 0,
): ((done: number, total: number) => void) | undefined {
  if (!onProgress) return undefined;
  const start = performance.now();
  let last = Number.NEGATIVE_INFINITY;
  return (done, total) => {
    const now = performance.now();
    if (now - start < delayMs || (now - last < gapMs && done < total)) return;
    last = now;
    onProgress(done, total);
  };
}

/** At most this often per job: a status event per file of a 10k-session pass would be thousands a second. */
export const STATUS_GAP_MS = 100;

/**
 * `emit` at most once per `gapMs` (clock: `now`): the first status at once, the last one held back
 * sent when the gap ends (so the newest is never lost); a `final` status (the pass ended) at once.
 */
export function throttledStatus<T>(
  emit: (status: T) => void,
  final: (status: T) => boolean,
  gapMs = STATUS_GAP_MS,
  now: () => number = () => performance.now(),
): (status: T) => void {
  let last = Number.NEGATIVE_INFINITY;
  let held: { status: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const send = (status: T) => {
    held = null;
    last = now();
    emit(status);
  };
  return (status) => {
    const wait = last + gapMs - now();
    if (final(status) || wait <= 0) {
      if (timer) clearTimeout(timer);
      timer = null;
      return send(status);
    }
    held = { status };
    timer ??= setTimeout(() => {
      timer = null;
      if (held) send(held.status);
    }, wait);
  };
}
