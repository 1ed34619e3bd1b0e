/**
 * The team database's access and faults, against a real cluster: the aggregate-only role (a real
 * second role, a real `permission denied`), a wrong password, an unreachable server, a newer schema,
 * and `push --watch` (an append arrives; SIGTERM ends it; the server stopped under it is exit 3).
 */
import { appendFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { PG_SKIP_REASON } from './pg-cluster';
import { canopyChild, ensureBuiltCli, until } from './team-child';
import { cliWith, freshDb, machineEnv, pushAs, sql, useCluster } from './team-helpers';
import { moreLines, twoMachines } from './team-fixture';

/** One line on stderr, no stack frame, none of the given secrets. */
function oneClearLine(err: string, ...secrets: string[]): void {
  expect(err.trim().split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/\n\s+at /);
  for (const s of secrets) expect(err).not.toContain(s);
}

async function closedPort(): Promise<number> {
  return await new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 1));
    });
  });
}

describe.skipIf(PG_SKIP_REASON !== null)('team database access and faults', () => {
  const cluster = useCluster();
  beforeAll(() => ensureBuiltCli(), 600_000);

  it('the aggregate role reads the views but not a message', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    await pushAs(m.a, m.piHome, url);
    const g = await cliWith(
      { AGG_PW: 'agg-secret-pw' },
      ...['db', 'grant', '--db', url, '--role', 'team_stats', '--password-env', 'AGG_PW'],
    );
    expect(g.err).toBe('');
    expect(g.out).toMatch(/created role team_stats: reads usage_daily, storage_by_session, activity_daily only/);
    const again = await cliWith({ AGG_PW: 'agg-secret-pw' }, 'db', 'grant', '--db', url, '--role', 'team_stats');
    expect(again.out).toMatch(/^updated role team_stats/);
    const db = new URL(url).pathname.slice(1);
    const agg = cluster().url({ user: 'team_stats', password: 'agg-secret-pw', db });
    const usage = await sql(agg, 'SELECT model, records FROM usage_daily');
    expect(usage.length).toBeGreaterThan(0);
    expect((await sql(agg, 'SELECT * FROM storage_by_session')).length).toBe(1);
    for (const table of ['entries', 'sessions'])
      await expect(
        sql(
          agg,
          `SELECT body FROM ${table === 'entries' ? 'entries' : 'sessions s, LATERAL (SELECT header AS body) h'}`,
        ),
      ).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(/permission denied/),
      });
  });

  it('a wrong password, an unreachable server: one line, exit 3, no password printed', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const wrong = new URL(url);
    wrong.password = 'not-the-password-zz';
    const r = await pushAs(m.a, m.piHome, wrong.toString());
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /^canopy push: the team database at postgres:\/\/canopy_test:\*\*\*\*@127\.0\.0\.1:\d+\/\w+ refused the credentials\n$/,
    );
    oneClearLine(r.err, 'not-the-password-zz', cluster().password);

    const gone = new URL(url);
    gone.port = String(await closedPort());
    const u = await pushAs(m.a, m.piHome, gone.toString());
    expect(u.code).toBe(3);
    expect(u.err).toMatch(/cannot reach the team database/);
    oneClearLine(u.err, cluster().password);
    const s = await cliWith({}, 'db', 'status', '--db', gone.toString());
    expect(s.code).toBe(3);
    oneClearLine(s.err, cluster().password);
  });

  it('a schema from a newer Canopy is refused clearly and left as it is', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    await pushAs(m.a, m.piHome, url);
    await sql(url, 'UPDATE canopy_schema SET version = 99');
    const r = await pushAs(m.a, m.piHome, url);
    expect(r.code).toBe(3);
    expect(r.err).toBe(
      "canopy push: the team database's schema is version 99, newer than this Canopy knows (1): update Canopy\n",
    );
    expect(await sql(url, 'SELECT version FROM canopy_schema')).toEqual([{ version: 99 }]);
  });

  it('push --watch sends an append without being asked and ends on SIGTERM', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const env = machineEnv(m.b, m.piHome);
    const child = canopyChild(['push', '--db', url, '--root', m.b.root, '--machine', 'box-b', '--watch'], env);
    await until(() => child.err().includes('watching'));
    await appendFile(m.fork, moreLines('b1', 1));
    const ms = await until(
      async () => (await sql(url, `SELECT 1 FROM entries WHERE entry_id LIKE 'more%'`)).length === 1,
    );
    console.log(`push --watch: an appended entry was in the database ${Math.round(ms)} ms later`);
    child.proc.kill('SIGTERM');
    expect(await child.done).toEqual({ code: 0, signal: null });
  });

  it('the server stopped under push --watch: one line, exit 3', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const child = canopyChild(
      ['push', '--db', url, '--root', m.b.root, '--machine', 'box-b', '--watch'],
      machineEnv(m.b, m.piHome),
    );
    await until(() => child.err().includes('watching'));
    cluster().stop();
    try {
      await appendFile(m.fork, moreLines('b1', 1));
      const end = await child.done;
      expect({ code: end.code, err: child.err(), out: child.out() }).toMatchObject({ code: 3 });
      const lines = child.err().trim().split('\n');
      expect(lines[0]).toMatch(/^canopy push: watching /);
      expect(lines.slice(1).join('\n')).toMatch(
        /^canopy push: the team database at \S+ (closed the connection|is shutting down|cannot reach)/,
      );
      oneClearLine(lines.slice(1).join('\n'), cluster().password);
    } finally {
      cluster().start();
    }
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.end();
  });
});
