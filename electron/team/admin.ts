/**
 * Administration of the team database: the aggregate-only role (`canopy db grant`) and what the
 * database holds (`canopy db status`). The views run with their owner's rights, so a role granted
 * SELECT on them reads the aggregates without any grant on the tables that hold the contents.
 */
import type pg from 'pg';
import { AGGREGATE_VIEWS } from './schema';

/** Creates the role (LOGIN) or updates its password; grants the schema's USAGE and SELECT on the views only. */
export async function grantAggregateRole(
  client: pg.Client,
  role: string,
  password: string | undefined,
): Promise<{ created: boolean }> {
  const name = client.escapeIdentifier(role);
  const pw = password === undefined ? '' : ` PASSWORD ${client.escapeLiteral(password)}`;
  await client.query('BEGIN');
  try {
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    const created = exists.rowCount === 0;
    await client.query(`${created ? 'CREATE' : 'ALTER'} ROLE ${name} LOGIN${pw}`);
    const schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    await client.query(`GRANT USAGE ON SCHEMA ${client.escapeIdentifier(schema)} TO ${name}`);
    await client.query(`GRANT SELECT ON ${AGGREGATE_VIEWS.join(', ')} TO ${name}`);
    await client.query('COMMIT');
    return { created };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

export interface TeamStatus {
  /** 0 when Canopy has not created its schema in this database yet. */
  schemaVersion: number;
  machines: number;
  users: number;
  sessions: number;
  tombstones: number;
  entries: number;
}

/** What the database holds, read without migrating it. */
export async function teamStatus(client: pg.Client): Promise<TeamStatus> {
  const has = await client.query<{ t: string | null }>("SELECT to_regclass('canopy_schema')::text AS t");
  if (has.rows[0]?.t == null)
    return { schemaVersion: 0, machines: 0, users: 0, sessions: 0, tombstones: 0, entries: 0 };
  const v = await client.query<{ version: number }>('SELECT version FROM canopy_schema WHERE id = 1');
  const schemaVersion = v.rows[0]?.version ?? 0;
  if (schemaVersion === 0) return { schemaVersion, machines: 0, users: 0, sessions: 0, tombstones: 0, entries: 0 };
  const s = await client.query<Record<'machines' | 'users' | 'sessions' | 'tombstones', string>>(
    `SELECT count(DISTINCT machine) AS machines, count(DISTINCT os_user) AS users,
            count(*) FILTER (WHERE tombstone IS NULL) AS sessions, count(*) FILTER (WHERE tombstone IS NOT NULL) AS tombstones
     FROM sessions`,
  );
  const e = await client.query<{ n: string }>('SELECT count(*) AS n FROM entries');
  const r = s.rows[0]!;
  return {
    schemaVersion,
    machines: Number(r.machines),
    users: Number(r.users),
    sessions: Number(r.sessions),
    tombstones: Number(r.tombstones),
    entries: Number(e.rows[0]!.n),
  };
}
