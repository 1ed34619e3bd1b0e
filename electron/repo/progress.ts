/** Progress callbacks that stay silent for fast operations. */

/** Progress only once an operation has been running for `delayMs` (then on every call). */
export function delayedProgress(
  onProgress: ((done: number, total: number) => void) | undefined,
  delayMs = 200,
): ((done: number, total: number) => void) | undefined {
  if (!onProgress) return undefined;
  const start = performance.now();
  return (done, total) => {
    if (performance.now() - start >= delayMs) onProgress(done, total);
  };
}
