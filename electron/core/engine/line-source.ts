/** Where an indexed session's bodies come from, and what goes wrong reading one back. PURE. */

/** Reads the text of one line back from the file (synchronously; the getter `raw` is sync). */
export interface LineSource {
  /** UTF-8 text of the bytes [offset, offset + length). Throws when the file can no longer be read. */
  readText(offset: number, length: number): string;
}

/**
 * A body that no longer matches its envelope, or is not JSON: the file changed under the index
 * (rewritten or replaced) or a line looked like pi's shape without being valid JSON. Reopen the
 * file (with `verify: 'parse'` after 'body_invalid').
 */
export class BodyError extends Error {
  constructor(
    readonly code: 'body_invalid' | 'body_mismatch' | 'body_unreadable',
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

export interface BodyCacheOptions {
  /** Parsed bodies kept (default 2048). */
  maxBodies?: number;
  /** Source bytes of the kept bodies (default 32 MiB). */
  maxBytes?: number;
}
