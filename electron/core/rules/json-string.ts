/** Bytes of JSON string content: where an escape or a string ends (the skimmer and the payload cut scan lines with these). PURE. */

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
 * character or a bad escape or the line ends first. `w`: 32-bit words over b's buffer. Four bytes
 * at a time while none is a quote, a backslash or a control character (SWAR: each test below is
 * exact for "some byte of the word").
 */
export function stringEnd(b: Uint8Array, w: Int32Array<ArrayBufferLike>, i: number, end: number): number {
  const base = b.byteOffset;
  const lastWord = ((base + end) >>> 2) - 1; // the last word wholly inside b[.., end) (>>>, * 4: buffers past 2 GiB)
  while (i < end) {
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
      if (i >= end) break;
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
  return -1;
}
