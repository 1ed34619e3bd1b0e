/**
 * What the store views (usage, storage) need of one session line, read from its bytes: the entry's
 * envelope (scanEnvelope, else JSON.parse of a line that is not too long), an assistant message's
 * model and usage (found from the line's end, where pi writes them), and the bytes of images and
 * tool / bash output (block-scan.ts). PURE.
 */
import { newEnvelopeScan, scanEnvelope, stringEnd, type Decode } from '../../core';
import { scanLineBlocks } from './block-scan';
import { readSpend, type SpendFact, type SpendRead, type SpendSource } from './spend';

export type { SpendFact } from './spend';

export interface EntryFact {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  /** A `leaf` entry's target (H3 moves the leaf with these). */
  targetId?: string | null;
  /** The line's bytes with its newline. */
  bytes: number;
  /** The physical line (1-based), where the reader was told it. */
  line?: number;
  imageBytes: number;
  outputBytes: number;
  spend?: SpendFact;
  /** Why the line's usage was not counted (a value pi's Usage type does not allow). */
  spendProblem?: string;
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

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}
const USAGE_KEY = ascii('"usage":{');
const API_KEY = ascii('"api":"');

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

/**
 * The byte after the JSON object starting at b[i] ('{'), or -1. With `depth` 1, b[i] is inside an
 * object already (at one of its keys): the byte after that object's closing brace.
 */
function objectEnd(b: Uint8Array, i: number, end: number, depth = 0): number {
  const w = new Int32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
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

/**
 * An assistant line's spend read from its end without parsing the rest: pi writes `api`, `provider`,
 * `model`, `responseModel` and `usage` after the content, so the members from the last `"api"`
 * before the last `"usage"` to the message's closing brace hold them all (a key inside the content
 * can only come before). Undefined when the line has another shape (the caller parses it whole).
 */
function spendFromBytes(b: Uint8Array, start: number, end: number, decode: Decode): SpendRead | undefined {
  const at = lastIndexOfBytes(b, USAGE_KEY, start, end);
  if (at < 0) return undefined;
  const api = lastIndexOfBytes(b, API_KEY, start, at);
  if (api < 0) return undefined;
  const close = objectEnd(b, api, end, 1);
  if (close < 0) return undefined;
  let tail: unknown;
  try {
    tail = JSON.parse(`{${decode(b, api, close - 1, false)}}`);
  } catch {
    return undefined;
  }
  if (!isRec(tail) || str(tail.model) === undefined || !isRec(tail.usage)) return undefined;
  return readSpend(tail.usage, { ...tail, source: 'assistant' });
}

/** The spend a parsed entry holds, as pi's breakdown reads it, or null. */
function spendOfEntry(v: Rec): SpendRead {
  const m = isRec(v.message) ? v.message : undefined;
  if (v.type === 'message' && m?.role === 'assistant') return readSpend(m.usage, { ...m, source: 'assistant' });
  if (v.type === 'message' && m?.role === 'toolResult') return readSpend(m.usage, { source: 'toolResult' });
  if (v.type === 'usage') return readSpend(v.usage, { ...v, source: 'usage' });
  if (v.type === 'compaction' || v.type === 'branch_summary') return readSpend(v.usage, { source: 'summary' });
  return null;
}

/** Which lines can carry usage, by entry type and role, and where it is looked for. */
function spendSource(type: string, role: string | undefined): SpendSource | null {
  if (type === 'message') return role === 'assistant' ? 'assistant' : role === 'toolResult' ? 'toolResult' : null;
  if (type === 'usage') return 'usage';
  return type === 'compaction' || type === 'branch_summary' ? 'summary' : null;
}

const BLOCK_ROLES = new Set(['user', 'toolResult', 'bashExecution', 'custom']);

export class FactReader {
  /** A line's spend: from its end for an assistant line, else parsed when it holds a usage key at all. */
  private spendOfLine(b: Uint8Array, start: number, end: number, source: SpendSource, parsed?: Rec): SpendRead {
    if (!parsed) {
      if (source === 'assistant') {
        const read = spendFromBytes(b, start, end, this.decode);
        if (read !== undefined) return read;
      }
      const at = lastIndexOfBytes(b, USAGE_KEY, start, end);
      if (at < 0) return null;
      if (end - start > FACT_PARSE_MAX_BYTES)
        return { problem: `not counted: the line is over ${FACT_PARSE_MAX_BYTES} bytes` };
      try {
        const v: unknown = JSON.parse(this.decode(b, start, end, false));
        if (!isRec(v)) return null;
        parsed = v;
      } catch {
        return null;
      }
    }
    return spendOfEntry(parsed);
  }

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
    const source = spendSource(fact.type, role);
    if (source) {
      const read = this.spendOfLine(b, start, end, source, parsed);
      if (read && 'spend' in read) fact.spend = read.spend;
      else if (read) fact.spendProblem = read.problem;
    }
    // An assistant's blocks are text, thinking and calls: no images or output to measure.
    if (
      source !== 'assistant' &&
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
