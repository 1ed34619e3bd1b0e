/**
 * What the store views (usage, storage) need of one session line, read from its bytes: the entry's
 * envelope (scanEnvelope, else JSON.parse of a line that is not too long), an assistant message's
 * model and usage (found from the line's end, where pi writes them), and the bytes of images and
 * tool / bash output (block-scan.ts). PURE.
 */
import { newEnvelopeScan, scanEnvelope, stringEnd, type Decode } from '../../core';
import { scanLineBlocks } from './block-scan';

/** One assistant message's spend. `cost` null: the record has no price (counted in tokens only). */
export interface SpendFact {
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number | null;
}

export interface EntryFact {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  /** A `leaf` entry's target (H3 moves the leaf with these). */
  targetId?: string | null;
  /** The line's bytes with its newline. */
  bytes: number;
  imageBytes: number;
  outputBytes: number;
  spend?: SpendFact;
}

export interface HeaderFact {
  id: string;
  cwd: string;
  timestamp: string;
  parentSession?: string;
}

/** Lines longer than this that the envelope scan cannot read are not parsed (their bytes still count). */
export const FACT_PARSE_MAX_BYTES = 4 * 1024 * 1024;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}
const USAGE_KEY = ascii('"usage":{');
const MODEL_KEY = ascii('"model":"');

/** The last start of `pat` (which begins with a quote) in b[start, before), or -1: hops from quote to quote. */
function lastIndexOfBytes(b: Uint8Array, pat: Uint8Array, start: number, before: number): number {
  let i = before - pat.length;
  while (i >= start) {
    const q = b.lastIndexOf(pat[0]!, i);
    if (q < start) return -1;
    let k = 1;
    while (k < pat.length && b[q + k] === pat[k]) k++;
    if (k === pat.length) return q;
    i = q - 1;
  }
  return -1;
}

/** The byte after the JSON object starting at b[i] ('{'), or -1. */
function objectEnd(b: Uint8Array, i: number, end: number): number {
  const w = new Int32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
  let depth = 0;
  while (i < end) {
    const c = b[i]!;
    if (c === 0x22) {
      const close = stringEnd(b, w, i + 1, end);
      if (close < 0) return -1;
      i = close + 1;
      continue;
    }
    i++;
    if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i;
  }
  return -1;
}

/** An assistant message's spend from its parsed `usage` and `model`; undefined without token counts. */
export function spendOf(usage: unknown, model: unknown): SpendFact | undefined {
  if (!isRec(usage)) return undefined;
  const input = num(usage.input);
  const output = num(usage.output);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = num(usage.cacheRead) ?? 0;
  const cacheWrite = num(usage.cacheWrite) ?? 0;
  const total = isRec(usage.cost) ? num(usage.cost.total) : undefined;
  // pi writes zero costs for models it has no prices for: tokens with a $0 total are unpriced.
  const tokens = input + output + cacheRead + cacheWrite;
  const cost = total === undefined || (total === 0 && tokens > 0) ? null : total;
  return { model: str(model) ?? '(unknown)', input, output, cacheRead, cacheWrite, cost };
}

/** Spend read from the end of an assistant line without parsing the rest of it. */
function spendFromBytes(b: Uint8Array, start: number, end: number, decode: Decode): SpendFact | undefined {
  const at = lastIndexOfBytes(b, USAGE_KEY, start, end);
  if (at < 0) return undefined;
  const open = at + USAGE_KEY.length - 1;
  const close = objectEnd(b, open, end);
  if (close < 0) return undefined;
  let usage: unknown;
  try {
    usage = JSON.parse(decode(b, open, close, false));
  } catch {
    return undefined;
  }
  const m = lastIndexOfBytes(b, MODEL_KEY, start, at);
  let model: string | undefined;
  if (m >= 0) {
    const w = new Int32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
    const from = m + MODEL_KEY.length;
    const q = stringEnd(b, w, from, end);
    if (q >= 0) model = JSON.parse(`"${decode(b, from, q, false)}"`) as string;
  }
  return spendOf(usage, model);
}

const BLOCK_ROLES = new Set(['user', 'toolResult', 'bashExecution', 'custom']);

export class FactReader {
  private readonly scan = newEnvelopeScan();
  /** `blocks` false: image and output bytes are not measured (usage needs none: a faster pass). */
  constructor(
    private readonly decode: Decode,
    private readonly blocks = true,
  ) {}

  /** The header a line holds (its first line), or null. */
  header(b: Uint8Array, start: number, end: number): HeaderFact | null {
    if (end - start > FACT_PARSE_MAX_BYTES) return null;
    let v: unknown;
    try {
      v = JSON.parse(this.decode(b, start, end, false));
    } catch {
      return null;
    }
    if (!isRec(v) || v.type !== 'session') return null;
    const h: HeaderFact = { id: str(v.id) ?? '', cwd: str(v.cwd) ?? '', timestamp: str(v.timestamp) ?? '' };
    const parent = str(v.parentSession) ?? str(v.branchedFrom);
    if (parent !== undefined) h.parentSession = parent;
    return h;
  }

  /** The entry line b[start, end) (no newline), or null when it is no entry (blank, not JSON, no id). */
  entry(b: Uint8Array, start: number, end: number, bytes: number): EntryFact | null {
    const s = this.scan;
    const d = this.decode;
    let fact: EntryFact;
    let role: string | undefined;
    let parsed: Rec | undefined;
    if (scanEnvelope(b, start, end, s)) {
      const a = !s.nonAscii;
      fact = {
        id: d(b, s.idStart, s.idEnd, a),
        parentId: s.parentStart < 0 ? null : d(b, s.parentStart, s.parentEnd, a),
        type: d(b, s.typeStart, s.typeEnd, a),
        timestamp: d(b, s.tsStart, s.tsEnd, a),
        bytes,
        imageBytes: 0,
        outputBytes: 0,
      };
      if (s.roleStart >= 0) role = d(b, s.roleStart, s.roleEnd, a);
      if (s.target === 1) fact.targetId = d(b, s.targetStart, s.targetEnd, a);
      else if (s.target === 0) fact.targetId = null;
    } else {
      if (end - start > FACT_PARSE_MAX_BYTES) return null;
      try {
        const v: unknown = JSON.parse(d(b, start, end, false));
        if (!isRec(v)) return null;
        parsed = v;
      } catch {
        return null;
      }
      const id = str(parsed.id);
      const type = str(parsed.type);
      if (id === undefined || type === undefined || type === 'session') return null;
      fact = {
        id,
        parentId: str(parsed.parentId) ?? null,
        type,
        timestamp: str(parsed.timestamp) ?? '',
        bytes,
        imageBytes: 0,
        outputBytes: 0,
      };
      if (type === 'leaf') fact.targetId = str(parsed.targetId) ?? null;
      if (isRec(parsed.message)) role = str(parsed.message.role);
    }
    if (fact.type === 'message' && role === 'assistant') {
      const spend =
        parsed && isRec(parsed.message)
          ? spendOf(parsed.message.usage, parsed.message.model)
          : spendFromBytes(b, start, end, d);
      if (spend) fact.spend = spend;
    } else if (
      this.blocks &&
      ((fact.type === 'message' && (role === undefined || BLOCK_ROLES.has(role))) || fact.type === 'custom_message')
    ) {
      const blocks = scanLineBlocks(b, start, end, d);
      if (blocks) {
        for (const img of blocks.images) fact.imageBytes += img.dataEnd - img.dataStart;
        for (const o of blocks.outputs) fact.outputBytes += o.end - o.start;
      }
    }
    return fact;
  }
}
