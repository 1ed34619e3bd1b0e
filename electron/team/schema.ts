/**
 * The team database's schema, as numbered migrations applied in order (one transaction each, under
 * an advisory lock, so two machines migrating at once do it once). A database whose version is newer
 * than this Canopy knows is refused: its rows may mean what this version cannot read. PURE.
 */

/** Each migration's statements; the schema's version is their count. */
export const MIGRATIONS: readonly string[][] = [
  [
    `CREATE TABLE sessions (
      machine text NOT NULL,
      path text NOT NULL,
      os_user text NOT NULL,
      session_id text NOT NULL,
      file_name text NOT NULL,
      cwd text NOT NULL,
      created_at text NOT NULL,
      parent_session text,
      parent_file text,
      header jsonb NOT NULL,
      pushed_bytes bigint NOT NULL DEFAULT 0,
      pushed_lines integer NOT NULL DEFAULT 0,
      size_bytes bigint NOT NULL DEFAULT 0,
      mtime_ms double precision NOT NULL DEFAULT 0,
      tombstone timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (machine, path)
    )`,
    `CREATE TABLE entries (
      machine text NOT NULL,
      path text NOT NULL,
      line integer NOT NULL,
      byte_offset bigint NOT NULL,
      line_bytes bigint NOT NULL,
      entry_id text NOT NULL,
      parent_id text,
      type text NOT NULL,
      ts text NOT NULL,
      body jsonb NOT NULL,
      provider text,
      model text,
      input bigint,
      output bigint,
      cache_read bigint,
      cache_write bigint,
      cost double precision,
      billed boolean,
      image_bytes bigint NOT NULL DEFAULT 0,
      output_bytes bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (machine, path, line),
      FOREIGN KEY (machine, path) REFERENCES sessions (machine, path) ON DELETE CASCADE
    )`,
    `CREATE INDEX entries_by_key ON entries (entry_id, ts)`,
    `CREATE INDEX sessions_by_file ON sessions (file_name)`,
    // What an aggregate-only role may read: no bodies, no paths, no ids. A record copied by a fork
    // (same id and timestamp, in any machine's file) is counted once, for the oldest session holding it.
    `CREATE VIEW usage_daily AS
      SELECT day, machine, os_user, project, provider, model,
             count(*) AS records, sum(cost) AS cost, sum(CASE WHEN billed THEN cost ELSE 0 END) AS billed_cost,
             sum(input) AS input, sum(output) AS output, sum(cache_read) AS cache_read, sum(cache_write) AS cache_write
      FROM (
        SELECT DISTINCT ON (e.entry_id, e.ts)
               left(e.ts, 10) AS day, s.machine, s.os_user, s.cwd AS project, e.provider, e.model,
               e.cost, e.billed, e.input, e.output, e.cache_read, e.cache_write
        FROM entries e JOIN sessions s USING (machine, path)
        WHERE e.model IS NOT NULL AND s.tombstone IS NULL
        ORDER BY e.entry_id, e.ts, s.created_at, s.machine, s.path
      ) once
      GROUP BY day, machine, os_user, project, provider, model`,
    `CREATE VIEW storage_by_session AS
      SELECT s.machine, s.os_user, s.cwd AS project, left(s.created_at, 10) AS day,
             count(e.line) AS entries, coalesce(sum(e.line_bytes), 0) AS bytes,
             coalesce(sum(e.image_bytes), 0) AS image_bytes, coalesce(sum(e.output_bytes), 0) AS output_bytes
      FROM sessions s LEFT JOIN entries e USING (machine, path)
      WHERE s.tombstone IS NULL
      GROUP BY s.machine, s.path, s.os_user, s.cwd, s.created_at`,
    `CREATE VIEW activity_daily AS
      SELECT left(e.ts, 10) AS day, s.machine, s.os_user, s.cwd AS project, e.type, count(*) AS entries
      FROM entries e JOIN sessions s USING (machine, path)
      WHERE s.tombstone IS NULL
      GROUP BY 1, 2, 3, 4, 5`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The views an aggregate-only role is granted (and nothing else). */
export const AGGREGATE_VIEWS = ['usage_daily', 'storage_by_session', 'activity_daily'] as const;

/** The key every migrating process locks first (any constant: it only has to be the same everywhere). */
export const MIGRATION_LOCK = 4_207_311;

/** Why a database at `found` cannot be used by this Canopy, or null. */
export function schemaRefusal(found: number): string | null {
  return found > SCHEMA_VERSION
    ? `the team database's schema is version ${found}, newer than this Canopy knows (${SCHEMA_VERSION}): update Canopy`
    : null;
}
