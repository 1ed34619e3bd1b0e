/**
 * The search index's SQLite file (better-sqlite3). A file that is not a database, is damaged or has
 * another schema version is deleted and created again: the index is a cache, never trusted.
 */
import Database from 'better-sqlite3';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { errnoCode } from '../../storage/stat';

export type SearchDatabase = Database.Database;

/** Bump when the schema or what is indexed changes: an index of another version is rebuilt. */
export const SEARCH_SCHEMA_VERSION = 8;

// Words with their positions (unicode61, diacritics kept, as search/rules/word-tokens.ts splits
// them), and `terms`, every distinct word (only added to; a row is a batch of them, one a line), so
// a query widens its words to the terms that can hold them (pi matches substrings: `Config` is in
// `loadConfig`). A prefilter: every candidate is then checked against its line's real text. Paths
// are not indexed apart: each is a substring of the text.
// An fts_text row is a block of consecutive entries of one file, its rowid the `blocks` row's:
// numbered 1, 2, 3… as blocks are written (newest sessions first in a first build), so FTS5's
// rowid deltas stay small. Never reused (AUTOINCREMENT): a file indexed again after the newest
// rows gets rowids a query's cursor has not passed yet, so its paging still reaches them.
// `blocks` holds its byte range, so a candidate block is tested raw with one read; `entries`
// its entries, a row each, clustered by block and line (a block without text has no fts_text row).
const SCHEMA = `
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL DEFAULT '',
  cwd TEXT NOT NULL DEFAULT '',
  name TEXT,
  ino REAL NOT NULL DEFAULT 0,
  size INTEGER NOT NULL DEFAULT 0,
  mtime_ms REAL NOT NULL DEFAULT 0,
  indexed_to INTEGER NOT NULL DEFAULT 0,
  next_line INTEGER NOT NULL DEFAULT 1,
  tail BLOB,
  last_id TEXT,
  leaf_target TEXT,
  has_leaf INTEGER NOT NULL DEFAULT 0,
  v1 INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE blocks (
  rowid INTEGER PRIMARY KEY AUTOINCREMENT,
  file INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  end INTEGER NOT NULL
);
CREATE INDEX blocks_by_file ON blocks(file);
CREATE TABLE entries (
  block INTEGER NOT NULL,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  id TEXT,
  parent_id TEXT,
  role TEXT NOT NULL,
  time REAL,
  tools TEXT NOT NULL,
  PRIMARY KEY (block, line)
) WITHOUT ROWID;
CREATE TABLE problems (file INTEGER NOT NULL, line INTEGER NOT NULL, message TEXT NOT NULL);
CREATE INDEX problems_by_file ON problems(file);
CREATE TABLE terms (rowid INTEGER PRIMARY KEY, list TEXT NOT NULL);
CREATE VIRTUAL TABLE fts_text USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0');
`;

/**
 * SQLite's page, and FTS5's leaf (`pgsz`, 46 bytes less, as its default 4050 fits 4096): at twice
 * the default a leaf's own header, footer and first rowid are paid half as often (docs/benchmarks.md,
 * the index's size).
 */
const PAGE_SIZE = 8192;

function removeFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`, markerOf(file)]) rmSync(f, { force: true });
}

function configure(db: SearchDatabase): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
}

/** Another process holds the index for writing (its first build): not damage, wait or read elsewhere. */
export class IndexBusy extends Error {}

/** Whether SQLite said another connection holds the lock (busy past the timeout, or locked). */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof IndexBusy || code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Opens the index as it is, or throws (not a database, damaged, another version, busy). */
function openExisting(file: string): SearchDatabase {
  const db = new Database(file, { fileMustExist: true });
  try {
    // Version 0 is a first build in progress, or one a crash stopped: a build in progress has a
    // live builder (its marker) and holds the write lock but for an instant between its commits.
    if (db.pragma('user_version', { simple: true }) === 0 && (builderAlive(file) || writeLocked(db))) {
      throw new IndexBusy('another Canopy process is building it');
    }
    configure(db);
    const version = db.pragma('user_version', { simple: true });
    if (version !== SEARCH_SCHEMA_VERSION)
      throw new OtherVersion(`schema version ${String(version)}, not ${SEARCH_SCHEMA_VERSION}`);
    // Reads every table's root page: a damaged file fails here rather than on the first query.
    db.prepare('SELECT (SELECT count(*) FROM files) + (SELECT count(*) FROM fts_text WHERE rowid = 0)').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Whether another connection holds the write lock now (asked without waiting). */
function writeLocked(db: SearchDatabase): boolean {
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (isBusy(err)) return true;
    throw err;
  } finally {
    db.pragma('busy_timeout = 5000');
  }
}

/**
 * A new empty index at `file`, made whole under a name of this process's own and linked into place
 * without replacing anything: of processes creating it at once, one wins and the others open its
 * file (deleting another's index or WAL mid-write gave them "disk I/O error" and "no such table").
 * `fresh` is false when another process's file won.
 */
function create(file: string, replace: boolean): { db: SearchDatabase; fresh: boolean } {
  if (replace) removeFiles(file);
  const tmp = `${file}.${process.pid}.new`;
  removeFiles(tmp);
  const made = new Database(tmp);
  try {
    // Before the first table: a database's page size is fixed once it holds one.
    made.pragma(`page_size = ${PAGE_SIZE}`);
    // Pages a first build's merge frees are given back at its end (endBulkLoad), not kept in the file.
    made.pragma('auto_vacuum = INCREMENTAL');
    made.exec(SCHEMA);
    made.exec(`INSERT INTO fts_text(fts_text, rank) VALUES('pgsz', ${PAGE_SIZE - 46})`);
    made.pragma(`user_version = ${SEARCH_SCHEMA_VERSION}`);
  } finally {
    made.close();
  }
  let fresh = true;
  try {
    linkSync(tmp, file);
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    fresh = false;
  } finally {
    removeFiles(tmp);
  }
  return { db: openExisting(file), fresh };
}

export interface OpenedIndex {
  db: SearchDatabase;
  /** Created now (empty): its first build may use a bulk load. */
  fresh: boolean;
  /** Why an existing index was thrown away (null: it was fine, or there was none). */
  rebuilt: string | null;
}

/** An index of another schema version (no SQLite code): rebuilt like a damaged one. */
class OtherVersion extends Error {}

export function openSearchDatabase(file: string): OpenedIndex {
  let reason: string;
  try {
    return { db: openExisting(file), fresh: false, rebuilt: null };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_CANTOPEN') return { ...create(file, false), rebuilt: null };
    // Only damage is thrown away: busy, locked, read-only or a full disk may be another process's
    // index at work, or a fault the user must hear of (the caller says it in one line).
    if (!(err instanceof OtherVersion) && !isCorruption(err)) throw err;
    reason = err instanceof Error ? err.message : String(err);
  }
  return { ...create(file, true), rebuilt: reason };
}

/**
 * The first build of an empty index, made fast: no WAL or fsync, a large page cache, and the
 * schema version cleared until `endBulkLoad`, so an index left by a crash mid-build is rebuilt
 * rather than trusted. The caller keeps one transaction open over many files (FTS5 writes a
 * segment per commit, and merging thousands of small ones is most of a per-file build).
 */
export function beginBulkLoad(db: SearchDatabase, file: string): void {
  writeFileSync(markerOf(file), String(process.pid));
  db.pragma('user_version = 0');
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  // FTS5 writes a segment each time its pending words pass `hashsize` (1 MB) and merges them as
  // it goes; the bulk load writes fewer, larger ones and leaves the merging to mergeSegments.
  db.exec("INSERT INTO fts_text(fts_text, rank) VALUES('hashsize', 67108864)");
  db.exec("INSERT INTO fts_text(fts_text, rank) VALUES('automerge', 0)");
}

/** Merges the FTS5 index into one segment: a query's AND then reads each doclist once, and its vocabulary reads fastest. */
export function mergeSegments(db: SearchDatabase): void {
  db.exec("INSERT INTO fts_text(fts_text) VALUES('optimize')");
}

export function endBulkLoad(db: SearchDatabase, file: string): void {
  db.pragma('incremental_vacuum');
  db.exec("INSERT INTO fts_text(fts_text, rank) VALUES('hashsize', 1048576)");
  db.exec("INSERT INTO fts_text(fts_text, rank) VALUES('automerge', 4)");
  configure(db);
  db.pragma('cache_size = -2000');
  db.pragma(`user_version = ${SEARCH_SCHEMA_VERSION}`);
  rmSync(markerOf(file), { force: true });
}

/** Names the process building the index from empty (removed when its build ends). */
const markerOf = (file: string): string => `${file}.building`;

/** Whether the marker names a process other than this one that is still running (it builds the index). */
export function builderAlive(file: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(markerOf(file), 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM'; // alive, another user's
  }
}

/** Deletes the index file (and its WAL); safe at any time the index is closed. */
export function deleteSearchDatabase(file: string): void {
  removeFiles(file);
}

/** An error SQLite raises for a damaged file (the caller rebuilds). */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT_VTAB';
}
