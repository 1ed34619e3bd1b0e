/**
 * A validating byte scan of one JSON line: true exactly when JSON.parse would accept the line's
 * text, no container nests deeper than MAX_DEPTH and no key the index reads (the envelope's, and
 * `role` in `message`) appears twice in its object. Then the envelope scanner's positions are what
 * parsing would give, and the line is indexed without decoding or parsing it (verify 'parse'
 * without a JSON.parse per line). False: parse the line (which reports what is wrong). PURE.
 *
 * JSON.parse reads the UTF-8 decoding of the bytes: a byte sequence that is not UTF-8 decodes to
 * U+FFFD, which a string may hold, and outside strings only ASCII is grammar: so the bytes decide.
 */
import { MAX_DEPTH } from '../rules/json-depth';
import { stringEnd } from '../bytes/json-string';
import { simdScan, WINDOW } from '../bytes/json-string-simd';

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJ = 0x7b;
const CLOSE_OBJ = 0x7d;
const OPEN_ARR = 0x5b;
const CLOSE_ARR = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const OBJ = 1;
const ARR = 2;
/** The object under the top level's `message` key (its `role` is read). */
const MESSAGE = 3;

function bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/** Keys of the entry's own object the index reads: each may appear once. */
const TOP_KEYS = ['type', 'id', 'parentId', 'timestamp', 'message', 'targetId'].map(bytes);
const MESSAGE_KEY = 4; // index of 'message' in TOP_KEYS
const ROLE_KEY = [bytes('role')];

function keyIndex(b: Uint8Array, start: number, end: number, keys: readonly Uint8Array[]): number {
  const n = end - start;
  outer: for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    if (key.length !== n) continue;
    for (let j = 0; j < n; j++) if (b[start + j] !== key[j]) continue outer;
    return k;
  }
  return -1;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function literalEnd(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  const lit = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
  if (i + lit.length > end) return -1;
  for (let k = 0; k < lit.length; k++) if (b[i + k] !== lit.charCodeAt(k)) return -1;
  return i + lit.length;
}

/** The byte after a JSON number starting at `i`, or -1. */
function numberEnd(b: Uint8Array, i: number, end: number): number {
  if (b[i] === MINUS) i++;
  if (i >= end) return -1;
  let c = b[i]!;
  if (c === ZERO) i++;
  else if (c > ZERO && c <= NINE) {
    i++;
    while (i < end && b[i]! >= ZERO && b[i]! <= NINE) i++;
  } else return -1;
  if (i < end && b[i] === DOT) {
    i++;
    const from = i;
    while (i < end && b[i]! >= ZERO && b[i]! <= NINE) i++;
    if (i === from) return -1;
  }
  c = i < end ? b[i]! : 0;
  if (c === 0x65 || c === 0x45) {
    i++;
    if (i < end && (b[i] === PLUS || b[i] === MINUS)) i++;
    const from = i;
    while (i < end && b[i]! >= ZERO && b[i]! <= NINE) i++;
    if (i === from) return -1;
  }
  return i;
}

export class JsonLineValidator {
  private words: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private wordsOf: ArrayBufferLike | null = null;
  private readonly stack = new Uint8Array(MAX_DEPTH + 2);

  valid(b: Uint8Array, start: number, end: number): boolean {
    // The same scan in WebAssembly, on a copy of the line (lines past its window: here, in JavaScript).
    const simd = end - start <= WINDOW ? simdScan() : null;
    if (simd) {
      simd.mem.set(b.subarray(start, end));
      return simd.validLine(0, end - start) === 1;
    }
    return this.validHere(b, start, end);
  }

  /** valid() in JavaScript (lines the SIMD module cannot take; tests compare the two). */
  validHere(b: Uint8Array, start: number, end: number): boolean {
    const w = this.wordsFor(b);
    const stack = this.stack;
    let depth = 0;
    let seenTop = 0;
    let seenRole = false;
    let nextIsMessage = false;
    let i = start;
    for (;;) {
      // A value at i.
      while (i < end && isWs(b[i]!)) i++;
      if (i >= end) return false;
      const c = b[i]!;
      let opened = false;
      if (c === QUOTE) {
        const close = stringEnd(b, w, i + 1, end);
        if (close < 0) return false;
        i = close + 1;
      } else if (c === OPEN_OBJ || c === OPEN_ARR) {
        if (++depth > MAX_DEPTH) return false;
        stack[depth] = c === OPEN_ARR ? ARR : nextIsMessage && depth === 2 ? MESSAGE : OBJ;
        i++;
        while (i < end && isWs(b[i]!)) i++;
        if (i < end && b[i] === (c === OPEN_ARR ? CLOSE_ARR : CLOSE_OBJ)) {
          i++;
          depth--;
        } else opened = true;
      } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
        i = literalEnd(b, i, end);
        if (i < 0) return false;
      } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
        i = numberEnd(b, i, end);
        if (i < 0) return false;
      } else return false;
      nextIsMessage = false;
      if (!opened) {
        // After a value: commas and closing brackets until the next value (or the end).
        for (;;) {
          while (i < end && isWs(b[i]!)) i++;
          if (depth === 0) return i === end;
          const d = i < end ? b[i] : -1;
          const kind = stack[depth]!;
          if (d === COMMA) {
            i++;
            break;
          }
          if (d === (kind === ARR ? CLOSE_ARR : CLOSE_OBJ)) {
            i++;
            depth--;
            continue;
          }
          return false;
        }
        if (stack[depth] === ARR) continue;
      } else if (stack[depth] === ARR) continue;
      // A key, then a colon, then the value.
      while (i < end && isWs(b[i]!)) i++;
      if (i >= end || b[i] !== QUOTE) return false;
      const from = i + 1;
      const close = stringEnd(b, w, from, end);
      if (close < 0) return false;
      if (depth === 1) {
        const k = keyIndex(b, from, close, TOP_KEYS);
        if (k >= 0) {
          if (seenTop & (1 << k)) return false;
          seenTop |= 1 << k;
          nextIsMessage = k === MESSAGE_KEY;
        }
      } else if (stack[depth] === MESSAGE && keyIndex(b, from, close, ROLE_KEY) === 0) {
        if (seenRole) return false;
        seenRole = true;
      }
      i = close + 1;
      while (i < end && isWs(b[i]!)) i++;
      if (i >= end || b[i] !== COLON) return false;
      i++;
    }
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
