/**
 * An answer already written as JSON (all-ASCII bytes) by a worker thread, so the loop that serves
 * requests neither builds nor serialises it: `canopy serve` sends its bytes as the answer's `data`;
 * Electron's IPC parses them (its structured clone needs a value). `T` is the value they spell.
 */
export class EncodedJson<T = unknown> {
  declare private readonly spells: T;
  constructor(readonly bytes: Buffer) {}

  /** The value itself (parsed here: what a transport without bytes, or a test, needs). */
  value(): T {
    return JSON.parse(this.bytes.toString('latin1')) as T;
  }
}
