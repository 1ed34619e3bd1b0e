/**
 * Bytes between a producer that must not block (a scanLines visitor) and an async consumer (the file
 * writer): small pushes are packed into 1 MiB pieces, and `wait()` is the scan's pause hook while
 * more than a few MiB wait to be written (bounded memory, whatever the file's size).
 */

/** Output is handed to the writer in pieces of about this size. */
const PIECE = 1024 * 1024;
/** The scan waits while this much is written ahead of the writer. */
const HIGH_WATER = 8 * 1024 * 1024;

/** Bytes between a producer that must not block and an async consumer; `wait()` holds the producer. */
export class ByteQueue {
  private readonly items: Uint8Array[] = [];
  private buffered = 0;
  private pending = Buffer.allocUnsafe(PIECE);
  private used = 0;
  private wake: (() => void) | null = null;
  private drained: { promise: Promise<void>; resolve: () => void } | null = null;
  done = false;
  error: unknown = null;

  /** Copies `bytes` (the scan reuses its buffer). */
  push(bytes: Uint8Array): void {
    if (bytes.length >= PIECE) {
      this.flush();
      this.enqueue(Buffer.from(bytes));
      return;
    }
    if (this.used + bytes.length > PIECE) this.flush();
    this.pending.set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    this.enqueue(this.pending.subarray(0, this.used));
    this.pending = Buffer.allocUnsafe(PIECE);
    this.used = 0;
  }

  private enqueue(b: Uint8Array): void {
    this.items.push(b);
    this.buffered += b.length;
    this.wake?.();
  }

  finish(error: unknown = null): void {
    this.flush();
    this.done = true;
    this.error = error;
    this.wake?.();
  }

  /** A promise while the queue is full (the scan's pause hook), else null. */
  wait(): Promise<void> | null {
    if (this.buffered < HIGH_WATER) return null;
    if (!this.drained) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.drained = { promise, resolve };
    }
    return this.drained.promise;
  }

  async *drain(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        this.buffered -= next.length;
        if (this.drained && this.buffered < HIGH_WATER / 2) {
          this.drained.resolve();
          this.drained = null;
        }
        yield next;
        continue;
      }
      if (this.done) {
        if (this.error) throw this.error;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
  }
}
