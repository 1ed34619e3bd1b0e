/** The longest gap between timer turns of this thread while `work` runs (how long it held the loop). */
export async function longestGap<T>(work: () => Promise<T>): Promise<{ value: T; gap: number }> {
  let last = performance.now();
  let gap = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { value, gap: Math.max(gap, performance.now() - last) };
  } finally {
    clearInterval(tick);
  }
}
