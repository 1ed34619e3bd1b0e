/**
 * Builders for small session files used by the core tables. Every entry gets an explicit id and
 * parentId; timestamps count up one second per built entry unless given.
 */
import { parseSessionText, SessionIndexer, type IndexerOptions, type ParsedSession } from '../../electron/core';

type Rec = Record<string, unknown>;

let clock = 0;
/** ISO time `n` seconds after 2026-01-01T00:00:00Z. */
export function ts(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
}
function next(): string {
  clock += 1;
  return ts(clock);
}

export function header(extra: Rec = {}): Rec {
  return { type: 'session', version: 3, id: 'sess-1', timestamp: ts(0), cwd: '/home/alice/proj', ...extra };
}

export function entry(type: string, id: string, parentId: string | null, fields: Rec = {}): Rec {
  return { type, id, parentId, timestamp: next(), ...fields };
}

export function user(id: string, parentId: string | null, text = `text of ${id}`, fields: Rec = {}): Rec {
  return entry('message', id, parentId, { message: { role: 'user', content: text, timestamp: 1000 }, ...fields });
}

export function assistant(
  id: string,
  parentId: string | null,
  text = `reply ${id}`,
  model = { provider: 'anthropic', model: 'claude' },
): Rec {
  return entry('message', id, parentId, {
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'anthropic-messages',
      provider: model.provider,
      model: model.model,
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: 'stop',
      timestamp: 2000,
    },
  });
}

export function message(id: string, parentId: string | null, msg: Rec): Rec {
  return entry('message', id, parentId, { message: msg });
}

export function compaction(
  id: string,
  parentId: string | null,
  firstKeptEntryId: string | undefined,
  fields: Rec = {},
): Rec {
  const base: Rec = { summary: `summary ${id}`, tokensBefore: 100, ...fields };
  if (firstKeptEntryId !== undefined) base.firstKeptEntryId = firstKeptEntryId;
  return entry('compaction', id, parentId, base);
}

export function label(id: string, parentId: string | null, targetId: string, text?: string): Rec {
  return entry('label', id, parentId, text === undefined ? { targetId } : { targetId, label: text });
}

export function leaf(id: string, parentId: string | null, targetId: string | null): Rec {
  return entry('leaf', id, parentId, { targetId });
}

/** One JSON value per line, each line ending with '\n'. Strings are written as-is (raw lines). */
export function jsonl(values: (Rec | string)[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n') + '\n';
}

let idCounter = 0;
export function counterIds(prefix = 'gen'): () => string {
  return () => `${prefix}${idCounter++}`;
}

/** Parse header + entries (raw strings allowed for damaged lines). */
export function session(entries: (Rec | string)[], head: Rec | string = header()): ParsedSession {
  return parseSessionText(jsonl([head, ...entries]), { newId: counterIds() });
}

/** Indexes `text` line by line, as a file is opened (the last line provisional when it has no newline). */
export function indexText(
  text: string,
  opts: Pick<IndexerOptions, 'verify' | 'isAscii'> & { onRead?: (offset: number) => void } = {},
): SessionIndexer {
  const bytes = Buffer.from(text);
  const { onRead, ...rest } = opts;
  const readText = (offset: number, length: number): string => {
    onRead?.(offset);
    return bytes.toString('utf8', offset, offset + length);
  };
  const indexer = new SessionIndexer({ source: { readText }, ...rest });
  let from = 0;
  let line = 1;
  while (from < bytes.length) {
    const nl = bytes.indexOf(10, from);
    const end = nl === -1 ? bytes.length : nl;
    indexer.pushLine(bytes, from, end, line++, from, nl !== -1);
    from = end + 1;
  }
  return indexer;
}

/** Header + entries as an indexed session (entries on disk, as the app opens files). */
export function indexedSession(entries: (Rec | string)[], head: Rec | string = header()): ParsedSession {
  return indexText(jsonl([head, ...entries])).result();
}

/** Ms of an ISO timestamp, as pi's message builders compute it. */
export function ms(iso: unknown): number {
  return new Date(iso as string).getTime();
}

export function idsOf(list: { id: string }[]): string[] {
  return list.map((e) => e.id);
}
