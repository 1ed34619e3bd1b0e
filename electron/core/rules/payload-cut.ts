/**
 * Heavy payloads of one JSONL line (base64 image data, megabyte tool outputs, big custom data),
 * found by a scan of its bytes that never parses the line, and the line with them cut out: what
 * the inspector shows of an entry whose line is megabytes long. PURE.
 *
 * The cut replaces only string contents (image data by "", long text by its first bytes and a
 * marker), so it parses as the same entry shape and the usual rendering code works on it.
 */
import type { Decode } from '../types';
import { escapeEnd, stringEnd } from '../bytes/json-string';

export interface PayloadOptions {
  /** Image data strings of at least this many bytes are cut (default 64 KiB). */
  imageMinBytes?: number;
  /** Other strings of at least this many bytes are cut (default 1 MiB). */
  textMinBytes?: number;
  /** Bytes of a cut text kept in the cut line (default 64 KiB). */
  keepBytes?: number;
}

export const PAYLOAD_IMAGE_MIN_BYTES = 64 * 1024;
export const PAYLOAD_TEXT_MIN_BYTES = 1024 * 1024;
export const PAYLOAD_KEEP_BYTES = 64 * 1024;
/** What follows the kept part of a cut text in the cut line. */
export const PAYLOAD_CUT_MARKER = ' ... [cut by Canopy]'; // ASCII: added as bytes

export interface Payload {
  /** JSON pointer of the string (RFC 6901), e.g. "/message/content/1/data". */
  id: string;
  kind: 'image' | 'text';
  /** An image block's mimeType. */
  mimeType?: string;
  /** The string's content (between its quotes) as bytes [start, end) of the line. */
  start: number;
  end: number;
  /** Estimated decoded size in bytes (base64 decoded for images, UTF-8 for text). */
  sizeBytes: number;
  /** Content bytes kept in the cut line (0 for images). */
  keptBytes: number;
}

interface Frame {
  arr: boolean;
  /** Array: index of the current element. Object: the current key (null: a key comes next). */
  index: number;
  key: string | null;
  type?: string;
  mime?: string;
  /** A long string under the key "data", judged when the object closes (is it an image?). */
  data?: { start: number; end: number; id: string };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function wordsOf(b: Uint8Array): Int32Array<ArrayBufferLike> {
  return new Int32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
}

/** A short JSON string's value (keys, types, mime types). */
function shortString(b: Uint8Array, from: number, close: number, decode: Decode): string {
  const s = decode(b, from, close, false);
  if (!s.includes('\\')) return s;
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

function pointer(stack: Frame[]): string {
  let out = '';
  for (const f of stack) {
    const token = f.arr ? String(f.index) : (f.key ?? '');
    out += '/' + token.replace(/~/g, '~0').replace(/\//g, '~1');
  }
  return out;
}

/**
 * The end of the first `max` bytes of the string content b[from, close), not inside an escape or a
 * UTF-8 character (`close` when the string is not longer).
 */
export function contentCut(b: Uint8Array, from: number, close: number, max: number): number {
  if (close - from <= max) return close;
  const limit = from + max;
  let i = from;
  while (i < limit) {
    if (b[i] === BACKSLASH) {
      const next = escapeEnd(b, i, close);
      if (next < 0 || next > limit) break;
      i = next;
    } else i++;
  }
  while (i > from && (b[i]! & 0xc0) === 0x80) i--;
  return i;
}

/**
 * The heavy payloads of the line b[start, end), in line order, with ranges relative to `start`;
 * null when the line has an unterminated or invalid string (not JSON: the caller reads it whole).
 */
export function findPayloads(
  b: Uint8Array,
  start: number,
  end: number,
  decode: Decode,
  options: PayloadOptions = {},
): Payload[] | null {
  const imageMin = options.imageMinBytes ?? PAYLOAD_IMAGE_MIN_BYTES;
  const textMin = options.textMinBytes ?? PAYLOAD_TEXT_MIN_BYTES;
  const keep = options.keepBytes ?? PAYLOAD_KEEP_BYTES;
  const w = wordsOf(b);
  const out: Payload[] = [];
  const stack: Frame[] = [];
  const text = (id: string, from: number, close: number): void => {
    const kept = contentCut(b, from, close, keep);
    out.push({
      id,
      kind: 'text',
      start: from - start,
      end: close - start,
      sizeBytes: close - from,
      keptBytes: kept - from,
    });
  };
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c === QUOTE) {
      const from = i + 1;
      const close = stringEnd(b, w, from, end);
      if (close < 0) return null;
      i = close + 1;
      const top = stack[stack.length - 1];
      if (!top) continue;
      if (!top.arr && top.key === null) {
        top.key = shortString(b, from, close, decode);
        continue;
      }
      const len = close - from;
      if (!top.arr && top.key === 'type' && len < 64) top.type = shortString(b, from, close, decode);
      else if (!top.arr && top.key === 'mimeType' && len < 256) top.mime = shortString(b, from, close, decode);
      else if (!top.arr && top.key === 'data' && len >= Math.min(imageMin, textMin))
        top.data = { start: from, end: close, id: pointer(stack) };
      else if (len >= textMin) text(pointer(stack), from, close);
      continue;
    }
    i++;
    if (c === 0x7b || c === 0x5b) stack.push({ arr: c === 0x5b, index: 0, key: null });
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top?.arr) top.index++;
      else if (top) top.key = null;
    } else if (c === 0x7d || c === 0x5d) {
      const f = stack.pop();
      const d = f?.data;
      if (!f || !d) continue;
      const len = d.end - d.start;
      if (f.type === 'image' && len >= imageMin) {
        // base64: 4 characters per 3 bytes (padding ignored: an estimate).
        const p: Payload = {
          id: d.id,
          kind: 'image',
          start: d.start - start,
          end: d.end - start,
          sizeBytes: Math.floor((len * 3) / 4),
          keptBytes: 0,
        };
        if (f.mime !== undefined) p.mimeType = f.mime;
        out.push(p);
      } else if (len >= textMin) text(d.id, d.start, d.end);
    }
  }
  return out.sort((x, y) => x.start - y.start);
}

/** The line b[start, end) with `payloads` (from findPayloads on the same bytes) cut, decoded. */
export function cutPayloads(
  b: Uint8Array,
  start: number,
  end: number,
  payloads: readonly Payload[],
  decode: Decode,
): string {
  if (payloads.length === 0) return decode(b, start, end, false);
  const marker = Uint8Array.from(PAYLOAD_CUT_MARKER, (ch) => ch.charCodeAt(0));
  let n = end - start;
  for (const p of payloads) n -= p.end - p.start - p.keptBytes - (p.kind === 'text' ? marker.length : 0);
  const out = new Uint8Array(n);
  let at = 0;
  let from = start;
  for (const p of payloads) {
    const keptEnd = start + p.start + p.keptBytes;
    out.set(b.subarray(from, keptEnd), at);
    at += keptEnd - from;
    if (p.kind === 'text') {
      out.set(marker, at);
      at += marker.length;
    }
    from = start + p.end;
  }
  out.set(b.subarray(from, end), at);
  return decode(out, 0, n, false);
}

/**
 * A page of a payload: the string content b[from, min(to, from + maxBytes)) decoded as JSON string
 * content, ending at an escape and character boundary; `next` is where the next page starts
 * (relative to b like `from`). Throws a SyntaxError when `from` is not a boundary.
 */
export function contentPage(
  b: Uint8Array,
  from: number,
  to: number,
  maxBytes: number,
  decode: Decode,
): { text: string; next: number } {
  let cut = contentCut(b, from, to, maxBytes);
  // A page smaller than an escape or a character still moves on by one of them.
  if (cut === from && from < to) {
    cut = Math.min(to, b[from] === BACKSLASH ? Math.max(escapeEnd(b, from, to), from + 2) : from + 1);
    while (cut < to && (b[cut]! & 0xc0) === 0x80) cut++;
  }
  const raw = decode(b, from, cut, false);
  const text = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  return { text, next: cut };
}
