/**
 * Where a session line keeps its images and its tool / bash output, found by one walk over its bytes
 * that never parses the line (a 20 MB screenshot line is not decoded). Storage sizes these parts and
 * slim copies replace them. PURE.
 *
 * Images: objects `{"type":"image", "data":…}` that are elements of a `content` array (user, toolResult
 * and custom messages, custom_message entries). Outputs: the `text` of a toolResult message's text
 * blocks (`message.content[i].text`) and a bashExecution message's `message.output`.
 */
import type { Decode } from '../../core';

export interface ImageBlock {
  /** The block object's bytes [objStart, objEnd) and its data string's content [dataStart, dataEnd). */
  objStart: number;
  objEnd: number;
  dataStart: number;
  dataEnd: number;
  mimeType?: string;
}

export interface OutputString {
  /** The string's content (between its quotes). */
  start: number;
  end: number;
}

export interface LineBlocks {
  /** `message.role`, when the line is a message whose role was read. */
  role?: string;
  images: ImageBlock[];
  outputs: OutputString[];
}

interface Frame {
  arr: boolean;
  /** Object: the current key (null: a key comes next). */
  key: string | null;
  start: number;
  type?: string;
  mime?: string;
  data?: { start: number; end: number };
  text?: { start: number; end: number };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The closing quote of the string whose content starts at `from` (-1: none before `end`): native
 * searches for a quote not preceded by an odd run of backslashes. Escapes and control characters are
 * not checked (pi's own lines are valid JSON; a line that is not gets sizes that are still exact).
 */
function closeOf(b: Uint8Array, from: number, end: number): number {
  let i = from;
  for (;;) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0 || q >= end) return -1;
    let k = q - 1;
    while (k >= from && b[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    i = q + 1;
  }
}

function shortString(b: Uint8Array, from: number, close: number, decode: Decode): string {
  const s = decode(b, from, close, false);
  if (!s.includes('\\')) return s;
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/** The keys the walk follows, as bytes: any other key is read as '' (never decoded). */
const KEYS = ['type', 'mimeType', 'data', 'text', 'role', 'output', 'content', 'message'].map((k) => ({
  key: k,
  bytes: Uint8Array.from(k, (ch) => ch.charCodeAt(0)),
}));

function keyOf(b: Uint8Array, from: number, close: number, decode: Decode): string {
  const len = close - from;
  for (const k of KEYS) {
    if (k.bytes.length !== len) continue;
    let j = 0;
    while (j < len && b[from + j] === k.bytes[j]) j++;
    if (j === len) return k.key;
  }
  // An escaped key may still spell one of them.
  if (len <= 32 && b.subarray(from, close).indexOf(BACKSLASH) !== -1) {
    const key = shortString(b, from, close, decode);
    return KEYS.some((k) => k.key === key) ? key : '';
  }
  return '';
}

/** True when `f` is an element of an array held under the key "content". */
function inContentArray(stack: Frame[]): boolean {
  const arr = stack[stack.length - 1];
  const owner = stack[stack.length - 2];
  return arr?.arr === true && owner?.arr === false && owner.key === 'content';
}

/**
 * The images and outputs of the JSON line b[start, end), in line order (absolute offsets); null when
 * a string is unterminated (not JSON: callers leave such a line as it is).
 */
export function scanLineBlocks(b: Uint8Array, start: number, end: number, decode: Decode): LineBlocks | null {
  const out: LineBlocks = { images: [], outputs: [] };
  const stack: Frame[] = [];
  const textBlocks: OutputString[] = [];
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c === QUOTE) {
      const from = i + 1;
      const close = closeOf(b, from, end);
      if (close < 0) return null;
      i = close + 1;
      const top = stack[stack.length - 1];
      if (!top || top.arr) continue;
      if (top.key === null) {
        top.key = keyOf(b, from, close, decode);
        continue;
      }
      const len = close - from;
      const depth = stack.length;
      if (top.key === 'type' && len < 64) top.type = shortString(b, from, close, decode);
      else if (top.key === 'mimeType' && len < 256) top.mime = shortString(b, from, close, decode);
      else if (top.key === 'data') top.data = { start: from, end: close };
      else if (top.key === 'text' && depth === 4) top.text = { start: from, end: close };
      else if (depth === 2 && stack[0]!.key === 'message') {
        if (top.key === 'role' && len < 64) out.role = shortString(b, from, close, decode);
        else if (top.key === 'output') out.outputs.push({ start: from, end: close });
      }
      continue;
    }
    i++;
    if (c === 0x7b || c === 0x5b) stack.push({ arr: c === 0x5b, key: null, start: i - 1 });
    else if (c === 0x2c) {
      const top = stack[stack.length - 1];
      if (top && !top.arr) top.key = null;
    } else if (c === 0x7d || c === 0x5d) {
      const f = stack.pop();
      if (!f || f.arr) continue;
      if (f.type === 'image' && f.data && inContentArray(stack)) {
        const img: ImageBlock = { objStart: f.start, objEnd: i, dataStart: f.data.start, dataEnd: f.data.end };
        if (f.mime !== undefined) img.mimeType = f.mime;
        out.images.push(img);
      } else if (f.type === 'text' && f.text && stack.length === 3 && inContentArray(stack)) {
        if (stack[0]!.key === 'message') textBlocks.push(f.text);
      }
    }
  }
  // A toolResult's text blocks are its output; the role is known only once the line is read.
  if (out.role === 'toolResult') out.outputs.push(...textBlocks);
  else if (out.role !== 'bashExecution') out.outputs.length = 0;
  out.outputs.sort((x, y) => x.start - y.start);
  return out;
}

/** Decoded size of base64 data of `len` characters (padding ignored: an estimate). */
export const base64Bytes = (len: number): number => Math.floor((len * 3) / 4);
