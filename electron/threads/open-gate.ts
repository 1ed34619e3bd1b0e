/**
 * Opening a session comes first. While one opens, every background pass (search indexing, the
 * secret radar, the store report) waits at its next pause point, between files or mid-file; one
 * gate owns that state, so a new pass cannot forget to give way.
 */
export class OpenGate {
  private holds = 0;
  private held: Promise<void> | null = null;
  private release: (() => void) | null = null;
  private readonly watchers = new Set<(held: boolean) => void>();

  /** Runs `work` with the background passes paused; they go on when the last open settles. */
  async during<T>(work: Promise<T>): Promise<T> {
    if (this.holds++ === 0) for (const w of this.watchers) w(true);
    try {
      return await work;
    } finally {
      if (--this.holds === 0) {
        this.release?.();
        this.release = null;
        this.held = null;
        for (const w of this.watchers) w(false);
      }
    }
  }

  /** Told when the gate closes (a first open began) and opens again (a pass in another thread follows it); returns the unwatch. */
  watch(fn: (held: boolean) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  /** A pass's pause hook: a promise while a session opens (every waiter shares it), else null. */
  readonly pause = (): Promise<void> | null =>
    this.holds === 0 ? null : (this.held ??= new Promise((resolve) => (this.release = resolve)));
}
