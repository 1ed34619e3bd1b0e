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
