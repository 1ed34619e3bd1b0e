/**
 * A session file's lines as the doctor reads them: each line one JSON object, or two or more glued
 * together (pi ≤ 0.84.3 appended to a last line that had no newline), or unreadable; then the file
 * cut into its sessions at every `session` header line. PURE.
 */
import type { Mark } from './marks';

export type Rec = Record<string, unknown>;

/** One physical line as read (its text without the newline). */
export interface SourceLine {
  line: number;
  text: string;
}

/** A JSON object from the file: `text` is its exact text, copied as is when the repair keeps it. */
export interface Piece {
  line: number;
  text: string;
  value: Rec;
}

/** One session of the file: its header line and the entries after it, in file order. */
export interface Part {
  header: Piece;
  entries: Piece[];
}

export interface SourceReading {
  parts: Part[];
  marks: Mark[];
  /** Lines that are no JSON object and no glued ones: pi skips them, and so does a repaired file. */
  skipped: { line: number; reason: string }[];
}

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseObject(text: string): Rec | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Whether a value is shaped as pi's lines are (a header or an entry: string type, id and
 * timestamp), not as a block inside one (a line cut off right after a content block).
 */
const entryLike = (v: Rec): boolean =>
  typeof v.type === 'string' && typeof v.id === 'string' && typeof v.timestamp === 'string';

/**
 * A line holding entries glued together: the objects it holds whole, and the text before them that
 * is no object (a line cut off before the next entry was glued to it). Null when it is not so.
 * Inside a JSON string every quote is escaped, so `{"` only starts an object: each is tried, from
 * the left, as the start of the last glued entry.
 */
export function splitGlued(text: string): { pieces: string[]; lost: string } | null {
  for (let at = text.indexOf('{"', 1); at > 0; at = text.indexOf('{"', at + 1)) {
    const tail = parseObject(text.slice(at));
    if (!tail || !entryLike(tail)) continue;
    const head = text.slice(0, at);
    if (parseObject(head)) return { pieces: [head, text.slice(at)], lost: '' };
    const inner = splitGlued(head);
    if (inner) return { pieces: [...inner.pieces, text.slice(at)], lost: inner.lost };
    return { pieces: [text.slice(at)], lost: head };
  }
  return null;
}

function gluedMark(line: number, pieces: number, lost: string): Mark {
  const cut = lost ? `; before them ${lost.length} characters of an entry cut off, which cannot be read` : '';
  return {
    kind: 'glued_line',
    line,
    found: `line ${line} holds ${pieces} entr${pieces === 1 ? 'y' : 'ies'} glued together${cut} (pi skips the whole line)`,
    repair: `split into ${pieces} line${pieces === 1 ? '' : 's'}${lost ? ', the cut-off text left out' : ''}`,
  };
}

/** The file's pieces and sessions; null when its first readable line is no session header (not a pi session). */
export function readSource(lines: Iterable<SourceLine>): SourceReading | null {
  const marks: Mark[] = [];
  const skipped: SourceReading['skipped'] = [];
  const pieces: Piece[] = [];
  for (const { line, text } of lines) {
    if (text.trim() === '') continue;
    const value = parseObject(text);
    if (value) {
      pieces.push({ line, text, value });
      continue;
    }
    const glued = pieces.length > 0 ? splitGlued(text) : null;
    if (!glued) {
      skipped.push({ line, reason: 'not a JSON object' });
      continue;
    }
    marks.push(gluedMark(line, glued.pieces.length, glued.lost));
    for (const t of glued.pieces) pieces.push({ line, text: t, value: parseObject(t)! });
  }
  const first = pieces[0];
  if (!first || first.value.type !== 'session' || typeof first.value.id !== 'string') return null;
  const parts: Part[] = [];
  for (const p of pieces) {
    if (p.value.type === 'session') parts.push({ header: p, entries: [] });
    else parts[parts.length - 1]!.entries.push(p);
  }
  if (parts.length > 1) {
    marks.push({
      kind: 'several_sessions',
      line: parts[1]!.header.line,
      found: `the file holds ${parts.length} sessions (header lines ${parts.map((p) => p.header.line).join(', ')}); pi reads them as one and resumes only the last`,
      repair: `split into ${parts.length} files, one per session`,
    });
  }
  return { parts, marks, skipped };
}
