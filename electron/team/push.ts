/**
 * `canopy push`: mirrors the listed sessions into the team database, each file from the byte offset
 * it was pushed to, so an append costs what it adds. A session's new rows and its new offset are
 * committed together (a push killed at any point leaves either both or neither); rows are keyed by
 * machine, path and line, so pushing twice, or two pushes at once, adds nothing twice. Files gone
 * from under a pushed root become tombstones.
 */
import { resolve, basename } from 'node:path';
import type pg from 'pg';
import { listSessions, type SkippedFile } from '../repo/sessions';
import { decodeBytes, scanLines } from '../storage/line-scan';
import { redactBody, redactString, type TextRedact } from './body-redact';
import { BODY_MAX_BYTES, entryRow, type EntryRow, type LineFactReader } from './entry-row';

export interface PushOptions {
  roots: readonly string[];
  machine: string;
  user: string;
  /** The secret rules and the user's redactions (NO_REDACTION only when the user turned it off). */
  redact: TextRedact;
  /** A new reader of line facts (the store views' FactReader), one per file. */
  facts: () => LineFactReader;
  keepImages: boolean;
  /** Told before each step (tests end the process at one to prove a push resumes). */
  onStep?: (step: 'session' | 'rows' | 'offset' | 'commit') => void;
}

export interface PushResult {
  sessions: number;
  /** Sessions that had new lines. */
  pushed: number;
  entries: number;
  bytes: number;
  redactions: number;
  tombstoned: number;
  skipped: SkippedFile[];
}

interface Known {
  path: string;
  pushed_bytes: string;
  pushed_lines: number;
  size_bytes: string;
  mtime_ms: number;
  tombstone: Date | null;
}

const BATCH = 400;
const COLUMNS = [
  'machine',
  'path',
  'line',
  'byte_offset',
  'line_bytes',
  'entry_id',
  'parent_id',
  'type',
  'ts',
  'body',
  'provider',
  'model',
  'input',
  'output',
  'cache_read',
  'cache_write',
  'cost',
  'billed',
  'image_bytes',
  'output_bytes',
] as const;

function values(machine: string, path: string, r: EntryRow): unknown[] {
  return [
    machine,
    path,
    r.line,
    r.byteOffset,
    r.lineBytes,
    r.entryId,
    r.parentId,
    r.type,
    r.ts,
    JSON.stringify(r.body),
    r.provider,
    r.model,
    r.input,
    r.output,
    r.cacheRead,
    r.cacheWrite,
    r.cost,
    r.billed,
    r.imageBytes,
    r.outputBytes,
  ];
}

async function insertRows(client: pg.Client, machine: string, path: string, rows: EntryRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const part = rows.slice(i, i + BATCH);
    const params: unknown[] = [];
    const tuples = part.map((r) => {
      const base = params.length;
      params.push(...values(machine, path, r));
      return `(${COLUMNS.map((_, k) => `$${base + k + 1}`).join(',')})`;
    });
    await client.query(
      `INSERT INTO entries (${COLUMNS.join(',')}) VALUES ${tuples.join(',')} ON CONFLICT (machine, path, line) DO NOTHING`,
      params,
    );
  }
}

/** A session file's own fault (unreadable, not a session): the file is skipped, the push goes on. */
class FileFault extends Error {}

/**
 * Pushes every listed session's new lines; tombstones pushed files gone from under the roots. Paths
 * are stored redacted (a cwd holding a secret names the project folder), the same way every time.
 */
export async function push(client: pg.Client, opts: PushOptions): Promise<PushResult> {
  const listing = await listSessions(opts.roots);
  const stored = (p: string): string => redactString(resolve(p), null, opts.redact).value;
  const known = new Map(
    (
      await client.query<Known>(
        'SELECT path, pushed_bytes, pushed_lines, size_bytes, mtime_ms, tombstone FROM sessions WHERE machine = $1',
        [opts.machine],
      )
    ).rows.map((k) => [k.path, k]),
  );
  const result: PushResult = {
    sessions: listing.sessions.length,
    pushed: 0,
    entries: 0,
    bytes: 0,
    redactions: 0,
    tombstoned: 0,
    skipped: [...listing.skipped],
  };
  // A file skipped (unreadable now) still exists: it is not tombstoned.
  const seen: string[] = listing.skipped.map((f) => stored(f.path));
  for (const info of listing.sessions) {
    const path = resolve(info.path);
    const at = { path, stored: stored(path) };
    seen.push(at.stored);
    try {
      const n = await pushSession(client, at, known.get(at.stored), info.sizeBytes, opts, result);
      if (n > 0) result.pushed++;
    } catch (err) {
      // A database fault stops the push (the next file would fail the same way); a file's own fault skips it.
      if (!(err instanceof FileFault)) throw err;
      result.skipped.push({ path, error: { code: 'io', message: err.message } });
    }
  }
  const roots = opts.roots.map((r) => `${stored(r)}/`);
  const gone = await client.query(
    `UPDATE sessions SET tombstone = now(), updated_at = now()
     WHERE machine = $1 AND tombstone IS NULL AND NOT (path = ANY($2::text[]))
       AND EXISTS (SELECT 1 FROM unnest($3::text[]) AS r(prefix) WHERE starts_with(path, r.prefix))`,
    [opts.machine, seen, roots],
  );
  result.tombstoned = gone.rowCount ?? 0;
  return result;
}

/** One session's new complete lines and its new offset, in one transaction; the lines pushed. */
async function pushSession(
  client: pg.Client,
  { path: file, stored: path }: { path: string; stored: string },
  known: Known | undefined,
  size: number,
  opts: PushOptions,
  result: PushResult,
): Promise<number> {
  if (known && Number(known.pushed_bytes) === size && !known.tombstone) return 0;
  const body = { redact: opts.redact, keepImages: opts.keepImages };
  const reader = opts.facts();
  const rows: EntryRow[] = [];
  // Shrunk (truncated or rewritten): pushed again from its start.
  const from = known && Number(known.pushed_bytes) <= size ? Number(known.pushed_bytes) : 0;
  const firstLine = from > 0 ? known!.pushed_lines + 1 : 1;
  let header: { value: Record<string, unknown>; id: string; cwd: string; timestamp: string; parent?: string } | null =
    null;
  const scan = await scanLines(
    file,
    (buf, start, end, line, offset, complete) => {
      if (!complete) return;
      if (end > start && buf[end - 1] === 0x0d) end--;
      if (line === 1) {
        const h = reader.header(buf, start, end);
        if (h) {
          let value: Record<string, unknown> = {};
          try {
            value = JSON.parse(decodeBytes(buf, start, end, false)) as Record<string, unknown>;
          } catch {
            // The header fact was read; its object is kept empty.
          }
          header = {
            value,
            id: h.id,
            cwd: h.cwd,
            timestamp: h.timestamp,
            ...(h.parentSession ? { parent: h.parentSession } : {}),
          };
          return;
        }
      }
      if (end === start) return;
      const fact = reader.entry(buf, start, end, end - start + 1);
      if (!fact) return;
      const text = end - start > BODY_MAX_BYTES ? null : decodeBytes(buf, start, end, false);
      const r = entryRow(fact, { line, byteOffset: offset }, text, body);
      result.redactions += r.redactions;
      rows.push(r.row);
    },
    { fromOffset: from, firstLine },
  ).catch((err: unknown) => {
    throw new FileFault(err instanceof Error ? err.message : String(err));
  });
  if (scan.endOffset === from && known && !known.tombstone) return 0;
  if (from === 0 && !header) throw new FileFault('not a pi session: its first line is no session header');
  opts.onStep?.('session');
  await client.query('BEGIN');
  try {
    const clean = (s: string): string => {
      const r = redactString(s, null, opts.redact);
      result.redactions += r.redactions;
      return r.value;
    };
    if (from === 0) {
      const h = header!;
      const headerBody = redactBody(h.value, body);
      result.redactions += headerBody.redactions;
      await client.query(
        `INSERT INTO sessions (machine, path, os_user, session_id, file_name, cwd, created_at, parent_session, parent_file, header)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (machine, path) DO UPDATE SET os_user = $3, session_id = $4, file_name = $5, cwd = $6,
           created_at = $7, parent_session = $8, parent_file = $9, header = $10, pushed_bytes = 0, pushed_lines = 0`,
        [
          opts.machine,
          path,
          opts.user,
          clean(h.id),
          clean(basename(file)),
          clean(h.cwd),
          clean(h.timestamp),
          h.parent === undefined ? null : clean(h.parent),
          h.parent === undefined ? null : clean(basename(h.parent)),
          JSON.stringify(headerBody.value),
        ],
      );
      await client.query('DELETE FROM entries WHERE machine = $1 AND path = $2', [opts.machine, path]);
    }
    // Locked for this transaction: a second push of the same file waits, then finds the offset moved.
    const locked = await client.query<{ pushed_bytes: string }>(
      'SELECT pushed_bytes FROM sessions WHERE machine = $1 AND path = $2 FOR UPDATE',
      [opts.machine, path],
    );
    if (from > 0 && Number(locked.rows[0]?.pushed_bytes ?? -1) !== from) {
      await client.query('ROLLBACK');
      return 0;
    }
    opts.onStep?.('rows');
    await insertRows(client, opts.machine, path, rows);
    opts.onStep?.('offset');
    await client.query(
      `UPDATE sessions SET pushed_bytes = $3, pushed_lines = $4, size_bytes = $5, mtime_ms = $6, tombstone = NULL, updated_at = now()
       WHERE machine = $1 AND path = $2`,
      [opts.machine, path, scan.endOffset, scan.nextLine - 1, scan.size, scan.mtimeMs],
    );
    opts.onStep?.('commit');
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  result.entries += rows.length;
  result.bytes += scan.endOffset - from;
  return rows.length;
}
