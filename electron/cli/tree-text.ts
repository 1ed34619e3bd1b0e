/**
 * `canopy tree`'s text: one line per entry, written as bytes into one buffer and decoded once
 * (87k lines of a 300 MiB session: a string per line and per id cost more than reading the file).
 */
import { entryColumns, treeShape, walkTree, type GraphReading, type ParsedSession } from '../core';
import { shown, type CliIo } from './cli-io';

/** Indentation grows by two spaces a branch level, capped so a deeply branched tree keeps a readable width. */
const MAX_DEPTH = 30;

/** Bytes of UTF-8 text, grown by doubling. */
class TextBytes {
  at = 0;
  buf: Buffer;

  /** `expect`: the bytes likely needed (growing copies the whole buffer, every time). */
  constructor(expect: number) {
    this.buf = Buffer.allocUnsafe(Math.max(expect, 1 << 12));
  }

  room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  text(s: string): void {
    this.room(s.length * 3);
    const { buf } = this;
    let at = this.at;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c > 0x7f) {
        this.at += buf.write(s, this.at, 'utf8');
        return;
      }
      buf[at++] = c;
    }
    this.at = at;
  }

  spaces(n: number): void {
    this.room(n);
    // A loop: Buffer.fill's checks cost more than 60 bytes written one by one.
    const { buf } = this;
    const end = this.at + n;
    for (let k = this.at; k < end; k++) buf[k] = 0x20;
    this.at = end;
  }

  /** A non-negative integer's digits (line numbers). */
  number(v: number): void {
    this.room(16);
    const { buf } = this;
    let end = this.at;
    for (let k = v; k >= 10; k = Math.floor(k / 10)) end++;
    this.at = end + 1;
    for (let k = v; ; k = Math.floor(k / 10)) {
      buf[end--] = 0x30 + (k % 10);
      if (k < 10) break;
    }
  }

  /** The text written so far (a view of the buffer). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

/** True when b[start, end) holds a control character (C0 or DEL: shown() escapes them). */
function hasControl(b: Uint8Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = b[k]!;
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * Indented text tree; indentation grows only at branch points so 100k-entry chains stay flat.
 * Reads the session's envelope columns by position (an indexed session: its own columns and id
 * table), so printing creates no entry object, no second id map and no string per id.
 */
export function printTree(
  io: CliIo['stdout'],
  session: ParsedSession,
  reading: Pick<GraphReading, 'pathIds' | 'leafId' | 'labels'>,
): void {
  const c = entryColumns(session);
  // The marks and labels by position, so a line looks up no id string.
  const onPath = new Uint8Array(c.count);
  for (const id of reading.pathIds) {
    const i = c.find(id);
    if (i >= 0) onPath[i] = 1;
  }
  const leaf = reading.leafId === null ? -1 : c.find(reading.leafId);
  const labels = new Map<number, string>();
  for (const [id, text] of Object.entries(reading.labels)) {
    const i = c.find(id);
    if (i >= 0) labels.set(i, `  [${shown(text)}]`);
  }
  // A handful of distinct type and role strings (the index keeps one of each): each kind shown() once.
  const kinds = new Map<string, Map<string | undefined, string>>();
  const kindOf = (type: string, role: string | undefined): string => {
    let byRole = kinds.get(type);
    if (!byRole) kinds.set(type, (byRole = new Map()));
    let text = byRole.get(role);
    if (text === undefined) byRole.set(role, (text = ` ${shown(role ? `${type}:${role}` : type)} (line `));
    return text;
  };
  // ~100 bytes a line in a branched session (indentation up to 60 of them).
  const out = new TextBytes(c.count * 100);
  walkTree(treeShape(c), (i, depth) => {
    out.spaces(2 * Math.min(depth, MAX_DEPTH));
    out.room(256);
    const start = out.at;
    const end = c.copyId ? c.copyId(i, out.buf, start) : -1;
    if (end >= 0 && !hasControl(out.buf, start, end)) out.at = end;
    else out.text(shown(c.idOf(i)));
    out.text(kindOf(c.typeOf(i), c.roleOf(i)));
    out.number(c.lineOf(i));
    out.text(')');
    const label = labels.get(i);
    if (label !== undefined) out.text(label);
    if (onPath[i] === 1) out.text(' *');
    if (i === leaf) out.text('  ← leaf');
    out.text('\n');
  });
  io.write(out.bytes());
}
