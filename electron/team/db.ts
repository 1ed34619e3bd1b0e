/**
 * The team database connection: connect with a time limit, migrate under an advisory lock, and turn
 * PostgreSQL's faults into one line each that never holds the password (TeamError, its own exit code).
 */
import type pg from 'pg';
import { MIGRATION_LOCK, MIGRATIONS, schemaRefusal, SCHEMA_VERSION } from './schema';

export class TeamError extends Error {}

/** The URL as it may be printed: the password, if any, masked. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return '(a database URL that does not parse)';
  }
}

/** A fault of the database said as one line (the URL shown masked). */
export function faultOf(err: unknown, url: string): TeamError {
  if (err instanceof TeamError) return err;
  const e = err as { code?: string; message?: string };
  const where = shownUrl(url);
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ECONNRESET':
      return new TeamError(`cannot reach the team database at ${where} (${e.code})`);
    case '28P01':
    case '28000':
      return new TeamError(`the team database at ${where} refused the credentials`);
    case '3D000':
      return new TeamError(`the team database at ${where} does not exist`);
    case '57P01':
    case '57P03':
      return new TeamError(`the team database at ${where} is shutting down or starting`);
    case '42501':
      return new TeamError(`the team database at ${where} refused this role: ${e.message ?? 'permission denied'}`);
  }
  const text = String(e.message ?? err);
  if (/timeout/i.test(text)) return new TeamError(`the team database at ${where} did not answer in time`);
  if (/Connection terminated|not queryable/i.test(text))
    return new TeamError(`the team database at ${where} closed the connection`);
  // Other messages from the server name no credentials; a client error could quote the URL.
  return new TeamError(`the team database at ${where} failed: ${text.split(url).join(where)}`);
}

export interface ConnectOptions {
  /** How long to wait for a connection (default 10 s). */
  connectMs?: number;
}

/** A connected client; the caller ends it. */
export async function connect(url: string, opts: ConnectOptions = {}): Promise<pg.Client> {
  // Loaded when a command uses the database, not by every `canopy` start.
  const { default: PgLib } = await import('pg');
  const client = new PgLib.Client({ connectionString: url, connectionTimeoutMillis: opts.connectMs ?? 10_000 });
  // A server that goes away later is an error on the next query, not an unhandled event.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw faultOf(err, url);
  }
  return client;
}

/** Brings the schema to this Canopy's version (once, whoever migrates at the same time); refuses a newer one. */
export async function migrate(client: pg.Client): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS canopy_schema (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)',
    );
    const r = await client.query<{ version: number }>('SELECT version FROM canopy_schema WHERE id = 1');
    const found = r.rows[0]?.version ?? 0;
    const refusal = schemaRefusal(found);
    if (refusal) throw new TeamError(refusal);
    for (let v = found; v < SCHEMA_VERSION; v++) for (const sql of MIGRATIONS[v]!) await client.query(sql);
    await client.query(
      'INSERT INTO canopy_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version',
      [SCHEMA_VERSION],
    );
    await client.query('COMMIT');
    return SCHEMA_VERSION;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
