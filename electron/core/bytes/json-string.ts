/** Bytes of JSON string content: where an escape or a string ends (the skimmer and the payload cut scan lines with these). PURE. */

import { simdScan, WINDOW, type SimdScanner } from './json-string-simd';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The byte after a valid JSON escape starting at `i` (a backslash), or -1. */
export function escapeEnd(b: Uint8Array, i: number, end: number): number {
  switch (b[i + 1]) {
    case 0x22:
    case 0x5c:
    case 0x2f:
    case 0x62:
    case 0x66:
    case 0x6e:
    case 0x72:
    case 0x74: // " \ / b f n r t
      return i + 2;
    case 0x75: {
      // u + 4 hex digits
      if (i + 6 > end) return -1;
      for (let k = i + 2; k < i + 6; k++) {
        const h = b[k]!;
        if (!((h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66))) return -1;
      }
      return i + 6;
    }
    default:
      return -1;
  }
}

/**
 * The closing quote of a string whose content starts at `i`, or -1 when it has a control
 * character or a bad escape or the line ends first. `w`: 32-bit words over b's buffer. A string
 * still open after SIMD_AFTER bytes is finished by the SIMD scan (json-string-simd.ts) when there is one.
 */
export function stringEnd(b: Uint8Array, w: Int32Array<ArrayBufferLike>, i: number, end: number): number {
  const simd = end - i > SIMD_AFTER ? simdScan() : null;
  const r = scalarEnd(b, w, i, simd ? i + SIMD_AFTER : end, end);
  if (r >= -1 || !simd) return r;
  return simdEnd(simd, b, w, -2 - r, end);
}

/** stringEnd from i on, through the SIMD scan: the bytes copied to its memory a window at a time. */
function simdEnd(simd: SimdScanner, b: Uint8Array, w: Int32Array<ArrayBufferLike>, i: number, end: number): number {
  for (;;) {
    const n = Math.min(end - i, WINDOW);
    simd.mem.set(b.subarray(i, i + n));
    const r = simd.scan(0, n);
    if (r >= 0) return i + r;
    if (r === -1) return -1;
    const p = i + (-2 - r);
    // The line's last bytes, or an escape the line's end cuts: the JavaScript scan ends it exactly.
    if (i + n === end) return scalarEnd(b, w, p, end, end);
    i = p;
  }
}

/** Bytes scanned here before a string is handed to the SIMD scan (a copy and a call cost more for short ones). */
export const SIMD_AFTER = 64;

/**
 * The scan of stringEnd up to `stop` (≤ end; escapes may read to `end`): the closing quote, -1,
 * or -2 - p when the string is still open at p ≥ stop (p < end). Four bytes at a time while none
 * is a quote, a backslash or a control character (SWAR: each test below is exact for "some byte
 * of the word").
 */
export function scalarEnd(b: Uint8Array, w: Int32Array<ArrayBufferLike>, i: number, stop: number, end: number): number {
  const base = b.byteOffset;
  const lastWord = ((base + stop) >>> 2) - 1; // the last word wholly inside b[.., stop) (>>>, * 4: buffers past 2 GiB)
  while (i < stop) {
    if (((base + i) & 3) === 0) {
      let k = (base + i) >>> 2;
      while (k <= lastWord) {
        const x = w[k]!;
        const q = x ^ 0x22222222;
        const s = x ^ 0x5c5c5c5c;
        if (((((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080) !== 0) break;
        k++;
      }
      i = k * 4 - base;
      if (i >= stop) break;
    }
    const c = b[i]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      i = escapeEnd(b, i, end);
      if (i < 0) return -1;
      continue;
    }
    if (c < 0x20) return -1;
    i++;
  }
  return i >= end ? -1 : -2 - i;
}
