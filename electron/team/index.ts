/**
 * The team wing's facade: the team database (PostgreSQL) that every machine's `canopy push` mirrors
 * its sessions into, redacted before they leave; the aggregate-only role; the database's status.
 * Faults come out as TeamError, one line that never holds the password.
 */
import type pg from 'pg';
import { connect, faultOf, migrate, shownUrl, type ConnectOptions } from './db';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { searchCacheDir } from '../storage/cache-dir';

export { TeamError, shownUrl, faultOf } from './db';
export { AGGREGATE_VIEWS, SCHEMA_VERSION } from './schema';
export { push, type PushOptions, type PushResult } from './push';
export { NO_REDACTION, type TextRedact } from './body-redact';
export type { LineFact, LineFactReader } from './entry-row';
export { grantAggregateRole, teamStatus, type TeamStatus } from './admin';
export { mirrorUnion, type Mirror } from './mirror';

export interface UseOptions extends ConnectOptions {
  /** Bring the schema to this Canopy's version first (push); status reads it as it is. */
  migrate: boolean;
}

/** Runs `fn` with a connected client (migrated when asked), ended after; any fault becomes a TeamError. */
export async function withTeamDb<T>(url: string, opts: UseOptions, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connect(url, opts);
  try {
    if (opts.migrate) await migrate(client);
    return await fn(client);
  } catch (err) {
    throw faultOf(err, url);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Where `canopy serve --db` mirrors a database (in Canopy's cache folder, one folder per database). */
export function mirrorDir(roots: readonly string[], url: string): string {
  const id = createHash('sha256').update(shownUrl(url)).digest('hex').slice(0, 16);
  return join(searchCacheDir(roots).dir, 'team', id);
}
