/**
 * The owner of the open sessions of one catalog (each an OpenSession, open-session.ts, which holds
 * all that is kept about it) and of which files must be indexed strictly. A file is indexed once and then followed: opening it again costs a stat,
 * a file that grew reads only the appended bytes. Sessions are evicted least recently used first
 * once their estimated bytes pass the budget (the one in use is kept whatever its size).
 */
import { BodyError, type ParsedSession } from '../core';
import { CanopyError } from '../shared/errors';
import { isMissing, statPath } from '../storage/stat';
import type { RefreshResult } from './live';
import { OpenSession } from './open-session';
import { fileError, indexOptions, isAbort, stampOf, type OpenOptions } from './session-file';

/** Default budget for the open sessions of a catalog, all together. */
export const STORE_BUDGET_BYTES = 512 * 1024 * 1024;

export interface StoreOptions {
  /** Estimated bytes the open sessions may hold together (default STORE_BUDGET_BYTES). */
  budgetBytes?: number;
}

export interface StoreOpenOptions extends OpenOptions {
  /** Skim every body during the index pass, so that the first previews read nothing more. */
  skimBodies?: boolean;
}

export interface FollowResult {
  /** not_open: the file is not open here (nothing read); removed: the file is gone (forgotten). */
  kind: RefreshResult['kind'] | 'not_open' | 'removed';
  /** Entries added to the open session (or its entry count after a re-index). */
  added: number;
  sizeBytes: number;
}

interface Slot {
  opening: Promise<OpenSession>;
  /** Set once indexed. */
  ready: OpenSession | null;
}

export class SessionStore {
  /** Insertion order is recency: the least recently used session comes first. */
  private readonly open = new Map<string, Slot>();
  /** Files where a line looked like pi's shape but was not valid JSON: indexed with verify 'parse'. */
  private readonly strict = new Set<string>();
  private readonly budgetBytes: number;

  constructor(options: StoreOptions = {}) {
    this.budgetBytes = options.budgetBytes ?? STORE_BUDGET_BYTES;
  }

  /**
   * The open session at `path`, brought up to date with the file: unchanged → as is; grown → the
   * appended lines are indexed; truncated or replaced → indexed again.
   */
  async session(path: string, opts: StoreOpenOptions = {}): Promise<OpenSession> {
    const stamp = await stampOf(path);
    const pending = this.open.get(path);
    if (pending) {
      let open: OpenSession | null = null;
      try {
        open = await pending.opening;
      } catch (err) {
        // Another caller's open was cancelled: ours was not, so open again.
        if (!(isAbort(err) && !opts.signal?.aborted)) throw err;
      }
      if (open) {
        this.touch(path, pending);
        if (open.live.stamp.size === stamp.size && open.live.stamp.mtimeMs === stamp.mtimeMs) return open;
        try {
          await open.live.refresh(indexOptions(opts, this.strict.has(path)));
        } catch (err) {
          throw fileError(path, err);
        }
        return open;
      }
    }
    const options = indexOptions(opts, this.strict.has(path));
    const slot: Slot = {
      opening: OpenSession.open(path, options, opts.skimBodies === true).then(
        (open) => (slot.ready = open),
        (err: unknown) => {
          if (this.open.get(path) === slot) this.open.delete(path);
          throw fileError(path, err);
        },
      ),
      ready: null,
    };
    this.touch(path, slot);
    const open = await slot.opening;
    this.trim(path);
    return open;
  }

  /** The parsed session at `path` as a view shows it (see OpenOptions.writerIdleMs); a `fatal` result is returned, not thrown. */
  async parsed(path: string, opts: StoreOpenOptions = {}): Promise<ParsedSession> {
    return viewOf(await this.session(path, opts), opts);
  }

  /**
   * Runs `fn` on the session at `path`. A body that no longer matches its index (the file was
   * rewritten under us, or a line only looked valid) throws a BodyError from inside `fn`: the file
   * is then indexed again (parsing every line after an invalid body) and `fn` runs once more.
   */
  async with<T>(
    path: string,
    fn: (s: ParsedSession, open: OpenSession) => T | Promise<T>,
    opts: StoreOpenOptions = {},
  ): Promise<T> {
    try {
      const open = await this.session(path, opts);
      return await this.settled(path, fn(viewOf(open, opts), open));
    } catch (err) {
      if (!(err instanceof BodyError)) throw err;
      // A body that is not JSON or names another entry than its envelope: either the file was
      // rewritten in place or a line only looked like pi's shape. Parsing every line covers both.
      if (err.code !== 'body_unreadable') this.strict.add(path);
      this.forget(path);
      try {
        const open = await this.session(path, { ...opts, skimBodies: false });
        return await this.settled(path, fn(viewOf(open, opts), open));
      } catch (again) {
        if (again instanceof BodyError) throw new CanopyError('io', `cannot read ${path}: ${again.message}`);
        throw again;
      }
    }
  }

  /** The followed session at `path` if one is open (no I/O). */
  async ifOpen(path: string): Promise<OpenSession | undefined> {
    const slot = this.open.get(path);
    return slot ? slot.opening.catch(() => undefined) : undefined;
  }

  /** The session at `path` if it is open and indexed, now (no waiting for an open still running). */
  readyAt(path: string): OpenSession | null {
    return this.open.get(path)?.ready ?? null;
  }

  /** Paths of the open sessions, least recently used first. */
  paths(): string[] {
    return [...this.open.keys()];
  }

  /** Estimated bytes of the open sessions together (those still being indexed count nothing yet). */
  bytes(): number {
    let n = 0;
    for (const slot of this.open.values()) n += slot.ready?.bytes ?? 0;
    return n;
  }

  /** Forget the open session at `path` (its file handle is closed). */
  forget(path: string): void {
    const slot = this.open.get(path);
    this.open.delete(path);
    void slot?.opening.then(
      (s) => s.live.close(),
      () => undefined,
    );
  }

  /**
   * A watcher saw `path` change: an open session reads what was appended (or is indexed again
   * when the file was truncated or replaced); a file that is not open is only stat'ed.
   */
  async follow(path: string): Promise<FollowResult> {
    let facts;
    try {
      facts = await statPath(path);
    } catch (err) {
      if (!isMissing(err)) throw fileError(path, err);
      this.forget(path);
      return { kind: 'removed', added: 0, sizeBytes: 0 };
    }
    const open = await this.ifOpen(path);
    if (!open) return { kind: 'not_open', added: 0, sizeBytes: facts.size };
    try {
      const r = await open.live.refresh();
      return { kind: r.kind, added: r.added, sizeBytes: open.live.stamp.size };
    } catch (err) {
      this.forget(path);
      throw fileError(path, err);
    }
  }

  /** Closes every open session. */
  clear(): void {
    for (const path of [...this.open.keys()]) this.forget(path);
    this.strict.clear();
  }

  private touch(path: string, slot: Slot): void {
    this.open.delete(path);
    this.open.set(path, slot);
  }

  /** What `fn` gave (awaited), after the budget is enforced for what it may have read. */
  private async settled<T>(path: string, result: T | Promise<T>): Promise<T> {
    try {
      return await result;
    } finally {
      this.trim(path);
    }
  }

  /** Evicts the least recently used sessions (never `keep`) while the estimate is over budget. */
  private trim(keep: string): void {
    let total = this.bytes();
    for (const [path, slot] of [...this.open]) {
      if (total <= this.budgetBytes) break;
      if (path === keep || !slot.ready) continue;
      total -= slot.ready.bytes;
      this.forget(path);
    }
  }
}

function viewOf(open: OpenSession, opts: OpenOptions): ParsedSession {
  return opts.writerIdleMs === undefined
    ? open.live.session
    : open.live.sessionAt((opts.now ?? Date.now)(), opts.writerIdleMs);
}
