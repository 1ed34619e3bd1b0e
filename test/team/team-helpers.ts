/** What the team tests share: one cluster per test file, the CLI run as a machine, SQL read back. */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { cli, type Run } from '../cli/run-cli';
import { createDatabase, startCluster, type PgCluster } from './pg-cluster';
import type { Machine } from './team-fixture';

/** Starts a cluster before the file's tests and removes it after; the getter is valid inside tests. */
export function useCluster(): () => PgCluster {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.destroy());
  return () => cluster!;
}

let dbs = 0;
/** A fresh database's URL. */
export async function freshDb(cluster: PgCluster): Promise<string> {
  return await createDatabase(cluster, `t${process.pid}_${++dbs}`);
}

/** The environment a machine's CLI runs with: its data folder, and pi's own root empty. */
export function machineEnv(m: Machine, piHome: string): Record<string, string> {
  return { CANOPY_DATA_DIR: m.data, PI_CODING_AGENT_DIR: piHome };
}

/** Runs the CLI in process with `env` set for the call. */
export async function cliWith(env: Record<string, string>, ...argv: string[]): Promise<Run> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await cli(...argv);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export async function pushAs(m: Machine, piHome: string, url: string, ...extra: string[]): Promise<Run> {
  return await cliWith(machineEnv(m, piHome), 'push', '--db', url, '--root', m.root, '--machine', m.name, ...extra);
}

export async function sql<T extends pg.QueryResultRow = Record<string, any>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** Every row of both tables as text, in key order: equal dumps mean nothing changed. */
export async function dumpTables(url: string): Promise<string> {
  const s = await sql<{ t: string }>(url, 'SELECT s::text AS t FROM sessions s ORDER BY machine, path');
  const e = await sql<{ t: string }>(url, 'SELECT e::text AS t FROM entries e ORDER BY machine, path, line');
  return [...s, ...e].map((r) => r.t).join('\n');
}

/** Row count and a checksum of (path, line, entry_id) over a machine's entries. */
export async function entriesSum(url: string, machine: string): Promise<{ n: number; sum: string | null }> {
  const [r] = await sql<{ n: string; sum: string | null }>(
    url,
    `SELECT count(*) AS n, md5(string_agg(path || ':' || line || ':' || entry_id, ',' ORDER BY path, line)) AS sum
     FROM entries WHERE machine = $1`,
    [machine],
  );
  return { n: Number(r!.n), sum: r!.sum };
}
