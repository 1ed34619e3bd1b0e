/**
 * A block's entry rows packed into one blob (the `blocks` row's `entries`), read back when the block
 * is a candidate: a row per entry and its index cost 0.086× the text on the 10k store, this ~0.015×.
 * Each field is written as a difference from the entry before (lines and offsets follow on, ids are
 * 8 hex digits whose parent is usually the entry before), and any value still round-trips exactly.
 */
import { SEARCH_ROLES, type SearchRole } from './rules/search-text';

/** An entry as the index stores it. */
export interface ParsedEntry {
  id: string | null;
  parentId: string | null;
  line: number;
  offset: number;
  length: number;
  role: string;
  time: number | null;
  /** Tool names as toolNamesText gives them ('' for none). */
  tools: string;
}

/** What an id is written as: none, 8 lowercase hex digits in 4 bytes, the entry before's id (parents only), text. */
const NONE = 0;
const HEX8 = 1;
const PREVIOUS = 2;
const TEXT = 3;
/** What a time is written as: an integer step from the last integer time (0: the flags fit one byte), none, a float64. */
const STEP = 0;
const NO_TIME = 1;
const FLOAT = 2;
/** A step past this is written as a float (zigzag doubles it; integers stay exact up to 2^53). */
const MAX_STEP = 2 ** 51;

const HEX8_RE = /^[0-9a-f]{8}$/;
const roleCode = new Map<string, number>(SEARCH_ROLES.map((r, i) => [r, i]));
const OTHER = roleCode.get('other')!;

class Writer {
  private buf = new Uint8Array(256);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  /** A non-negative safe integer, 7 bits a byte (arithmetic, not bit operators: values pass 2^32). */
  uint(n: number): void {
    this.room(8);
    while (n >= 0x80) {
      this.buf[this.at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.at++] = n;
  }

  int(n: number): void {
    this.uint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  text(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.uint(b.length);
    this.bytes(b);
  }

  float(x: number): void {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(x);
    this.bytes(b);
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

class Reader {
  at = 0;
  constructor(private readonly b: Buffer) {}

  uint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      // A blob cut short or of another layout is an error, never a read past its end.
      if (this.at >= this.b.length) throw new Error('a packed entry list ends early');
      const byte = this.b[this.at++]!;
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  private skip(n: number): number {
    if (this.at + n > this.b.length) throw new Error('a packed entry list ends early');
    this.at += n;
    return this.at - n;
  }

  text(): string {
    const n = this.uint();
    const from = this.skip(n);
    return this.b.toString('utf8', from, this.at);
  }

  float(): number {
    return this.b.readDoubleLE(this.skip(8));
  }

  hex8(): string {
    const from = this.skip(4);
    return this.b.toString('hex', from, this.at);
  }
}

const idKind = (id: string | null): number => (id === null ? NONE : HEX8_RE.test(id) ? HEX8 : TEXT);

function writeId(w: Writer, kind: number, id: string): void {
  if (kind === HEX8) w.bytes(Buffer.from(id, 'hex'));
  else if (kind === TEXT) w.text(id);
}

function readId(r: Reader, kind: number, previous: string | null): string | null {
  return kind === HEX8 ? r.hex8() : kind === TEXT ? r.text() : kind === PREVIOUS ? previous : null;
}

/**
 * Per block: the entry count, the distinct tool-name texts, then per entry a flags number (role,
 * id kind, parent kind, time kind), its line and offset as steps from the entry before's line and
 * end, its length, its time, its id, its parent and its tools' place in the list (0: none).
 */
export function packEntries(entries: readonly ParsedEntry[]): Uint8Array {
  const w = new Writer();
  w.uint(entries.length);
  const tools = [...new Set(entries.map((e) => e.tools).filter(Boolean))];
  w.uint(tools.length);
  for (const t of tools) w.text(t);
  const toolAt = new Map(tools.map((t, i) => [t, i + 1]));
  let line = 0;
  let end = 0;
  let time = 0;
  let previous: string | null = null;
  for (const e of entries) {
    const id = idKind(e.id);
    const parent = e.parentId !== null && e.parentId === previous ? PREVIOUS : idKind(e.parentId);
    const step = e.time === null ? 0 : e.time - time;
    const timeKind =
      e.time === null
        ? NO_TIME
        : Number.isInteger(e.time) && !Object.is(e.time, -0) && Math.abs(step) <= MAX_STEP
          ? STEP
          : FLOAT;
    w.uint((roleCode.get(e.role) ?? OTHER) | (id << 3) | (parent << 5) | (timeKind << 7));
    w.int(e.line - line);
    w.int(e.offset - end);
    w.uint(e.length);
    if (timeKind === STEP) {
      w.int(step);
      time = e.time!;
    } else if (timeKind === FLOAT) w.float(e.time!);
    writeId(w, id, e.id!);
    if (parent !== PREVIOUS) writeId(w, parent, e.parentId!);
    w.uint(toolAt.get(e.tools) ?? 0);
    line = e.line;
    end = e.offset + e.length;
    previous = e.id;
  }
  return w.done();
}

export function unpackEntries(blob: Uint8Array): ParsedEntry[] {
  const r = new Reader(Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength));
  const n = r.uint();
  const tools = [''];
  for (let i = r.uint(); i > 0; i--) tools.push(r.text());
  const out: ParsedEntry[] = [];
  let line = 0;
  let end = 0;
  let time = 0;
  let previous: string | null = null;
  for (let i = 0; i < n; i++) {
    const flags = r.uint();
    const e: ParsedEntry = {
      id: null,
      parentId: null,
      line: (line += r.int()),
      offset: end + r.int(),
      length: r.uint(),
      role: SEARCH_ROLES[flags & 7] as SearchRole,
      time: null,
      tools: '',
    };
    const timeKind = (flags >> 7) & 3;
    if (timeKind === STEP) e.time = time += r.int();
    else if (timeKind === FLOAT) e.time = r.float();
    e.id = readId(r, (flags >> 3) & 3, null);
    e.parentId = readId(r, (flags >> 5) & 3, previous);
    e.tools = tools[r.uint()] ?? '';
    end = e.offset + e.length;
    previous = e.id;
    out.push(e);
  }
  return out;
}
