/**
 * One session line as the team database stores it: its envelope, the redacted body and the facts
 * usage and storage need (read by the store views' own FactReader, so the numbers are theirs). PURE.
 */
import { redactBody, redactString, type BodyOptions } from './body-redact';

/**
 * What the team reads of a line: the store views' FactReader is handed in (by the CLI, which
 * composes the wings), so the numbers are theirs; this is the part of its facts a row keeps.
 */
export interface LineFact {
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  /** The line's bytes with its newline. */
  bytes: number;
  imageBytes: number;
  outputBytes: number;
  spend?: {
    provider: string;
    model: string;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    cost: number | null;
    billed: boolean;
  };
}

/** Reads a header line and entry lines into facts (core's line bytes: buf[start, end) without the newline). */
export interface LineFactReader {
  header(
    b: Uint8Array,
    start: number,
    end: number,
  ): { id: string; cwd: string; timestamp: string; parentSession?: string } | null;
  entry(b: Uint8Array, start: number, end: number, bytes: number): LineFact | null;
}

/** Lines longer than this keep their envelope and facts; their body is a sized note. */
export const BODY_MAX_BYTES = 16 * 1024 * 1024;

export interface EntryRow {
  line: number;
  byteOffset: number;
  lineBytes: number;
  entryId: string;
  parentId: string | null;
  type: string;
  ts: string;
  body: unknown;
  provider: string | null;
  model: string | null;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  cost: number | null;
  billed: boolean | null;
  imageBytes: number;
  outputBytes: number;
}

/** The row of a line whose facts were read; `text` is the line (null when over BODY_MAX_BYTES). */
export function entryRow(
  fact: LineFact,
  at: { line: number; byteOffset: number },
  text: string | null,
  opts: BodyOptions,
): { row: EntryRow; redactions: number } {
  let redactions = 0;
  const clean = (s: string): string => {
    const r = redactString(s, null, opts.redact);
    redactions += r.redactions;
    return r.value;
  };
  let body: unknown = { omitted: `a line of ${fact.bytes} bytes` };
  if (text !== null) {
    try {
      const r = redactBody(JSON.parse(text), opts);
      body = r.value;
      redactions += r.redactions;
    } catch {
      body = { omitted: 'a line that is not JSON' };
    }
  }
  const s = fact.spend;
  const row: EntryRow = {
    line: at.line,
    byteOffset: at.byteOffset,
    lineBytes: fact.bytes,
    entryId: clean(fact.id),
    parentId: fact.parentId === null ? null : clean(fact.parentId),
    type: clean(fact.type),
    ts: clean(fact.timestamp),
    body,
    provider: s ? clean(s.provider) : null,
    model: s ? clean(s.model) : null,
    input: s ? s.input : null,
    output: s ? s.output : null,
    cacheRead: s ? s.cacheRead : null,
    cacheWrite: s ? s.cacheWrite : null,
    cost: s ? s.cost : null,
    billed: s ? s.billed : null,
    imageBytes: fact.imageBytes,
    outputBytes: fact.outputBytes,
  };
  return { row, redactions };
}
