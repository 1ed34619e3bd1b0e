/**
 * Pages of a query's hits with no budget: the first page is read from a new HitStream, which is
 * then kept (by an opaque cursor id) so `more` continues exactly where the page stopped — every hit
 * once, in the order one long query would give them. A page is read in slices with a turn of the
 * event loop between them (other requests are answered meanwhile; a newer query stops an older
 * one's page), and a `re:` query's slices run under a vm timeout, so a catastrophic regex is stopped.
 */
import { randomBytes } from 'node:crypto';
import vm from 'node:vm';
import { CanopyError } from '../shared/errors';
import type { HitStream, SearchHit } from './query';

/** Live cursors kept at most (the oldest goes first); a dropped one is answered `invalid_argument`. */
export const MAX_CURSORS = 16;
/** A cursor not used for this long is dropped (its stream holds the query's candidate list). */
const CURSOR_TTL_MS = 10 * 60_000;
/** Work between two turns of the event loop. */
const SLICE_MS = 15;
/** A regex query's slice stopped after this long: only a regex stuck on one line runs so long. */
export const REGEX_LIMIT_MS = 1_000;

export interface Page {
  hits: SearchHit[];
  /** null: every hit was returned. */
  cursor: string | null;
  /** Why the query stopped before its page was full (cancelled, a runaway regex), or null. */
  stopped: string | null;
}

export interface Fallback {
  why: string;
  fault: boolean;
}

export interface Live {
  id: string;
  query: string;
  stream: HitStream;
  regex: boolean;
  usedAt: number;
  /** A newer query asked: this one's page in progress ends at its next slice. */
  cancelled: boolean;
  /** Hits answered so far: a file re-indexed between pages gives its rows new rowids, never a hit twice. */
  seen: Set<string>;
  /** Read from the files, not the index: why, said with every page (`fault`: it cannot be used, not busy). */
  fallback: Fallback | null;
}

// One vm script reused: running it with a timeout interrupts whatever JS it calls (a regex included).
const timedScript = new vm.Script('work()');
const timedContext = vm.createContext({ work: null as null | (() => boolean) });

function runTimed(work: () => boolean, ms: number): boolean {
  timedContext.work = work;
  try {
    return timedScript.runInContext(timedContext, { timeout: ms }) as boolean;
  } finally {
    timedContext.work = null;
  }
}

function timedOut(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

export class QueryPages {
  private readonly live = new Map<string, Live>();
  private readonly filling = new Set<Live>();

  constructor(private readonly regexLimitMs = REGEX_LIMIT_MS) {}

  /** A newer query came: every page still being read stops at its next slice (its cursor stays valid). */
  cancelRunning(): void {
    for (const l of this.filling) l.cancelled = true;
  }

  /** A new query: its stream is kept under a new cursor. */
  start(query: string, stream: HitStream, regex: boolean, fallback: Fallback | null = null): Live {
    this.expire();
    const l: Live = {
      id: randomBytes(12).toString('base64url'),
      query,
      stream,
      regex,
      usedAt: Date.now(),
      cancelled: false,
      seen: new Set(),
      fallback,
    };
    this.live.set(l.id, l);
    while (this.live.size > MAX_CURSORS) this.drop(this.live.keys().next().value!);
    return l;
  }

  /** The stream a cursor continues; an unknown, expired or foreign cursor is `invalid_argument`. */
  resume(cursor: string, query: string): Live {
    this.expire();
    const l = this.live.get(cursor);
    if (!l)
      throw new CanopyError(
        'invalid_argument',
        'this search cursor is unknown or expired (the index was rebuilt, or newer searches replaced it): run the query again',
      );
    if (l.query !== query) throw new CanopyError('invalid_argument', 'this search cursor belongs to another query');
    // Most recently used last: the oldest is dropped first.
    this.live.delete(cursor);
    this.live.set(cursor, l);
    l.usedAt = Date.now();
    l.cancelled = false;
    return l;
  }

  /**
   * Up to `limit` more hits of a live query, read in slices with a turn of the event loop between
   * them; with `earlyMs`, fewer once the page holds a hit and has run that long. The cursor stays
   * valid unless the stream ended or failed.
   */
  async page(l: Live, limit: number, earlyMs = Number.POSITIVE_INFINITY): Promise<Page> {
    const hits: SearchHit[] = [];
    const began = performance.now();
    const slice = (): boolean => {
      const end = performance.now() + SLICE_MS;
      for (;;) {
        const n = l.stream.next();
        if (n.done) return true;
        const h = n.value;
        const key = h && `${h.path}\n${h.line}\n${h.entryId}`;
        if (h && key && !l.seen.has(key)) {
          l.seen.add(key);
          if (hits.push(h) >= limit) return false;
        }
        if (performance.now() >= end) return false;
      }
    };
    this.filling.add(l);
    try {
      for (;;) {
        let done: boolean;
        try {
          done = l.regex ? runTimed(slice, this.regexLimitMs) : slice();
        } catch (err) {
          this.drop(l.id);
          if (!timedOut(err)) throw err;
          const s = this.regexLimitMs / 1000;
          return { hits, cursor: null, stopped: `the regex ran past ${s} s on one line and was stopped` };
        }
        if (done) {
          this.drop(l.id);
          return { hits, cursor: null, stopped: null };
        }
        if (hits.length >= limit) return { hits, cursor: l.id, stopped: null };
        // What was found so far, shown while the rest is read (the caller asks on with the cursor).
        if (hits.length > 0 && performance.now() - began >= earlyMs) return { hits, cursor: l.id, stopped: null };
        await new Promise((r) => setImmediate(r));
        // Stopped by a newer query: what was found is answered, and the cursor still continues it.
        if (l.cancelled) return { hits, cursor: l.id, stopped: 'cancelled by a newer search' };
      }
    } finally {
      this.filling.delete(l);
    }
  }

  /** Every cursor goes (the index was closed or rebuilt: the streams read a database that is gone). */
  clear(): void {
    for (const id of [...this.live.keys()]) this.drop(id);
  }

  private expire(): void {
    const old = Date.now() - CURSOR_TTL_MS;
    for (const l of [...this.live.values()]) if (l.usedAt < old) this.drop(l.id);
  }

  private drop(id: string): void {
    const l = this.live.get(id);
    if (!l) return;
    this.live.delete(id);
    l.cancelled = true;
    // A stream a regex timeout interrupted may refuse to close; it is dropped either way.
    try {
      l.stream.return();
    } catch {
      /* already broken */
    }
  }
}
