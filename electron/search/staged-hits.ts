/**
 * A query over the index and the listed files it does not hold, merged by recency a file at a time:
 * files newer than every indexed one first (sessions started since), then the index's hits (newest
 * first), then older files the first build has not reached. Results are complete while it builds.
 * When the index cannot be used at all, every listed file is read (newest first) instead.
 */
import type { SearchQuery } from './rules/search-query';
import type { SearchDatabase } from './storage/search-db';
import { statPathOrNull } from '../storage/stat';
import { byteHits, type SessionNames } from './byte-search';
import { queryHits, type FileInfo, type HitStream, type QueryOptions } from './query';

/** Paths newest first by their mtime now (a file gone sorts last: the byte stage passes it over). */
function newestFirst(paths: Iterable<string>): { path: string; mtimeMs: number }[] {
  const out = [...paths].map((path) => ({ path, mtimeMs: statPathOrNull(path)?.mtimeMs ?? 0 }));
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The indexed paths of each files list (kept while the list is: ~2 ms a query for 10,000 files). */
const indexedPaths = new WeakMap<readonly FileInfo[], Set<string>>();

/**
 * `paths` the index does not hold. A file whose first sync has not ended (another process's, or
 * one that failed midway) may have part of its rows: it is read whole too (a hit found twice is
 * answered once, by query-pages).
 */
function notIndexed(files: readonly FileInfo[], paths: ReadonlySet<string>): string[] {
  let indexed = indexedPaths.get(files);
  if (!indexed) indexedPaths.set(files, (indexed = new Set(files.filter((f) => f.indexed_to > 0).map((f) => f.path))));
  return [...paths].filter((p) => !indexed.has(p));
}

export function* stagedHits(
  db: SearchDatabase,
  q: SearchQuery,
  opts: QueryOptions & { files: readonly FileInfo[]; names: SessionNames },
): HitStream {
  const missing = opts.paths ? notIndexed(opts.files, opts.paths) : [];
  if (missing.length === 0) return yield* queryHits(db, q, opts);
  const newest = opts.files.reduce((m, f) => Math.max(m, f.mtime_ms), 0);
  const byAge = newestFirst(missing);
  yield* byteHits(
    byAge.filter((f) => f.mtimeMs > newest).map((f) => f.path),
    q,
    opts.names,
  );
  yield* queryHits(db, q, opts);
  yield* byteHits(
    byAge.filter((f) => f.mtimeMs <= newest).map((f) => f.path),
    q,
    opts.names,
  );
}

/** Every hit in `paths` read from the files alone, newest file first (the index cannot be used). */
export function fileHits(paths: ReadonlySet<string>, q: SearchQuery, names: SessionNames): HitStream {
  return byteHits(
    newestFirst(paths).map((f) => f.path),
    q,
    names,
  );
}
