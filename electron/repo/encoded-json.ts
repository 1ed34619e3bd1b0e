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

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102] as const; // 0-9a-f
const BACKSLASH = 0x5c;
const U = 0x75;

/**
 * JSON.stringify(value) as bytes with every non-ASCII character escaped (`\u2026`): the same
 * value, but an all-ASCII body, which Chromium decodes several times faster than UTF-8.
 */
export function asciiJsonBytes(value: unknown): Buffer {
  const json = JSON.stringify(value) ?? 'null';
  const n = json.length;
  // One pass: room for every character as one byte plus some escapes, grown when escapes need more.
  let out = Buffer.allocUnsafe(n + (n >> 4) + 64);
  let at = 0;
  for (let k = 0; k < n; k++) {
    const c = json.charCodeAt(k);
    if (c < 0x80) {
      out[at++] = c;
      continue;
    }
    // This escape and one byte for each character after it.
    const need = at + 6 + (n - k - 1);
    if (need > out.length) {
      const grown = Buffer.allocUnsafe(need + (need >> 3));
      out.copy(grown, 0, 0, at);
      out = grown;
    }
    out[at] = BACKSLASH;
    out[at + 1] = U;
    out[at + 2] = HEX[c >> 12]!;
    out[at + 3] = HEX[(c >> 8) & 15]!;
    out[at + 4] = HEX[(c >> 4) & 15]!;
    out[at + 5] = HEX[c & 15]!;
    at += 6;
  }
  return out.subarray(0, at);
}
