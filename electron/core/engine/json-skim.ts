/**
 * One line of JSON with its long text strings cut short, for readers that look at no more than
 * the first few hundred characters of some strings (the graph's previews): JSON.parse then reads
 * kilobytes instead of a megabyte tool output, and the cut bytes are never decoded. PURE.
 *
 * `skim` answers, for the bytes of one line:
 * - a string: JSON text that parses exactly when the whole line parses, to the same value, except
 *   that string values under some keys may end early. Under a `prefix` key, a string longer than
 *   `keep` UTF-16 units keeps at least `keep` of its first units, one of them a plain non-space
 *   ASCII character (so `s.trim() !== ''` answers the same for it); under a `drop` key, a string may
 *   be cut to any prefix of itself (the reader never looks at it). The cut bytes are still
 *   checked: no control character, only JSON's escapes, a closing quote;
 * - null: the line is not JSON (a string with a control character or a bad escape, or unclosed);
 * - undefined: no answer here (a long string whose kept part is all spaces or escapes): parse the
 *   whole line.
 * Why the answer parses exactly when the line does: a cut shortens one string token by bytes
 * checked to be legal string content, so the tokens, and with them JSON's grammar, are unchanged.
 */
import { stringEnd } from '../bytes/json-string';
import type { Decode, SkimKeys } from '../types';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Whether b[start, end) is one of `keys`. */
function isOneOf(keys: readonly Uint8Array[], b: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  outer: for (const key of keys) {
    if (key.length !== n) continue;
    for (let k = 0; k < n; k++) if (b[start + k] !== key[k]) continue outer;
    return true;
  }
  return false;
}

export type { SkimKeys } from '../types';

const asBytes = (keys: readonly string[]): Uint8Array[] =>
  keys.map((k) => Uint8Array.from(k, (ch) => ch.charCodeAt(0)));

export class JsonSkimmer {
  private readonly prefix: Uint8Array[];
  private readonly drop: Uint8Array[];
  private readonly keep: number;
  /** 32-bit words over the buffer the last line came in (scanLines reuses one buffer). */
  private words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private wordsOf: ArrayBufferLike | null = null;
  /** Cut ranges of the current line: [cut, closing quote) pairs. */
  private readonly cuts: number[] = [];
  private out = new Uint8Array(64 * 1024);

  /** Bytes of the skimmer's reused buffers. */
  get bytes(): number {
    return this.out.byteLength;
  }
  /** keptEnd's second answer. */
  private plain = false;

  /** `keys`: which string values may be cut (ASCII names); `decode` turns kept bytes into text (UTF-8). */
  constructor(
    private readonly decode: Decode,
    keys: SkimKeys,
  ) {
    this.prefix = asBytes(keys.prefix);
    this.drop = asBytes(keys.drop);
    this.keep = keys.keep;
  }

  skim(b: Uint8Array, start: number, end: number): string | null | undefined {
    const cuts = this.cuts;
    cuts.length = 0;
    const w = this.wordsFor(b);
    let prev = 0; // the last byte outside strings that is not whitespace
    let keyStart = -1;
    let keyEnd = -1;
    let i = start;
    while (i < end) {
      const c = b[i]!;
      if (c !== QUOTE) {
        if (c > 0x20) prev = c;
        i++;
        continue;
      }
      const from = i + 1;
      const close = stringEnd(b, w, from, end);
      if (close < 0) return null;
      if (prev === COLON && close > from) {
        // A string has at most as many units as bytes: only a longer one can need a cut.
        if (close - from > this.keep && isOneOf(this.prefix, b, keyStart, keyEnd)) {
          const cut = this.keptEnd(b, from, close);
          if (cut < close) {
            if (!this.plain) return undefined;
            cuts.push(cut, close);
          }
        } else if (isOneOf(this.drop, b, keyStart, keyEnd)) {
          cuts.push(from, close);
        }
      }
      // A key when a colon follows: the value after it is judged by it.
      keyStart = from;
      keyEnd = close;
      prev = QUOTE;
      i = close + 1;
    }
    if (cuts.length === 0) return this.decode(b, start, end, false);
    return this.joined(b, start, end);
  }

  /**
   * Where the kept part of the valid string content b[from, close) ends: after its first `keep`
   * units, at a character boundary (`close` when the string is not longer). Sets `plain`: the kept
   * part has a plain non-space ASCII character.
   */
  private keptEnd(b: Uint8Array, from: number, close: number): number {
    const w = this.words;
    const base = b.byteOffset;
    const keep = this.keep;
    let units = 0;
    let plain = false;
    let i = from;
    while (i < close) {
      // Four ASCII characters at a time while none is a control character or a backslash.
      if (((base + i) & 3) === 0 && i + 4 <= close && units + 4 <= keep) {
        const x = w[(base + i) >>> 2]!;
        const s = x ^ 0x5c5c5c5c;
        if (((x | ((x - 0x20202020) & ~x) | ((s - 0x01010101) & ~s)) & 0x80808080) === 0) {
          units += 4;
          if (x !== 0x20202020) plain = true; // not four spaces: one of them is above 0x20
          i += 4;
          continue;
        }
      }
      const c = b[i]!;
      // An ASCII or lead byte starts a character: a cut before it splits none.
      if (units >= keep && (c < 0x80 || c >= 0xc0)) break;
      if (c === BACKSLASH) {
        i += b[i + 1] === 0x75 ? 6 : 2;
        units++;
        continue;
      }
      // A character is one unit at least; continuation bytes add none.
      if (c < 0x80) {
        units++;
        if (c > 0x20) plain = true;
      } else if (c >= 0xc0) {
        units++;
      }
      i++;
    }
    this.plain = plain;
    return i;
  }

  /** The line without its cut ranges, decoded. */
  private joined(b: Uint8Array, start: number, end: number): string {
    const cuts = this.cuts;
    let n = end - start;
    for (let k = 0; k < cuts.length; k += 2) n -= cuts[k + 1]! - cuts[k]!;
    if (this.out.length < n) this.out = new Uint8Array(Math.max(n, this.out.length * 2));
    const out = this.out;
    let at = 0;
    let from = start;
    for (let k = 0; k < cuts.length; k += 2) {
      out.set(b.subarray(from, cuts[k]!), at);
      at += cuts[k]! - from;
      from = cuts[k + 1]!;
    }
    out.set(b.subarray(from, end), at);
    return this.decode(out, 0, n, false);
  }

  private wordsFor(b: Uint8Array): Int32Array<ArrayBufferLike> {
    const buffer = b.buffer;
    if (this.wordsOf !== buffer) {
      this.wordsOf = buffer;
      this.words = new Int32Array(buffer, 0, buffer.byteLength >>> 2);
    }
    return this.words;
  }
}
