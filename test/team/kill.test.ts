/**
 * A push SIGKILLed at each step of a session's transaction (the rows written, the offset moved, the
 * commit sent), then pushed again: the database ends exactly as one clean push leaves it.
 */
import { appendFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, migrate } from '../../electron/team/db';
import { PG_SKIP_REASON } from './pg-cluster';
import { canopyChild, ensureBuiltCli } from './team-child';
import { cliWith, entriesSum, freshDb, machineEnv, sql, useCluster } from './team-helpers';
import { moreLines, twoMachines, type TwoMachines } from './team-fixture';

const STEPS = ['rows', 'offset', 'commit'] as const;

function pushArgs(m: TwoMachines, url: string): string[] {
  return ['push', '--db', url, '--root', m.a.root, '--root', m.b.root, '--machine', 'both', '--json'];
}

async function state(url: string): Promise<unknown> {
  const sessions = await sql(url, 'SELECT path, pushed_bytes, pushed_lines FROM sessions ORDER BY path');
  return { sessions, entries: await entriesSum(url, 'both') };
}

describe.skipIf(PG_SKIP_REASON !== null)('a push killed with SIGKILL and pushed again', () => {
  const cluster = useCluster();
  beforeAll(() => ensureBuiltCli(), 600_000);

  it('eight connections migrating a new database at once migrate it once (the advisory lock)', async () => {
    const url = await freshDb(cluster());
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect(url)));
    try {
      expect(await Promise.all(clients.map((c) => migrate(c)))).toEqual(Array(8).fill(1));
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    expect(await sql(url, 'SELECT version FROM canopy_schema')).toEqual([{ version: 1 }]);
  });

  it('two machines pushing at once into a new database (both migrating) never clash', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const runs = [m.a, m.b, m.a].map((x) =>
      canopyChild(['push', '--db', url, '--root', x.root, '--machine', x.name, '--json'], machineEnv(x, m.piHome)),
    );
    const ends = await Promise.all(runs.map((r) => r.done));
    expect(
      ends.map((e) => e.code),
      runs.map((r) => r.err()).join(''),
    ).toEqual([0, 0, 0]);
    expect(await sql(url, 'SELECT version FROM canopy_schema')).toEqual([{ version: 1 }]);
    expect((await entriesSum(url, 'laptop-a')).n).toBe(7);
    expect((await entriesSum(url, 'box-b')).n).toBe(4);
  });

  for (const step of STEPS)
    it(`killed at "${step}" of the second session, then of an append: nothing doubled, nothing lost`, async () => {
      const m = await twoMachines();
      const env = machineEnv(m.a, m.piHome);
      const clean = await freshDb(cluster());
      const killed = await freshDb(cluster());
      expect((await cliWith(env, ...pushArgs(m, clean))).code).toBe(0);

      const child = canopyChild(pushArgs(m, killed), { ...env, CANOPY_TEST_PUSH_DIE_AT: `${step}:2` });
      expect((await child.done).signal).toBe('SIGKILL');
      // The first session is in; the second is wholly in (killed at the commit it may have landed) or wholly out.
      const [half] = await sql(killed, 'SELECT count(*)::int AS n FROM sessions WHERE pushed_bytes > 0');
      expect(half!.n).toBeGreaterThanOrEqual(1);
      expect((await cliWith(env, ...pushArgs(m, killed))).code).toBe(0);
      expect(await state(killed)).toEqual(await state(clean));

      await appendFile(m.fork, moreLines('b1', 3));
      expect((await cliWith(env, ...pushArgs(m, clean))).code).toBe(0);
      const again = canopyChild(pushArgs(m, killed), { ...env, CANOPY_TEST_PUSH_DIE_AT: step });
      expect((await again.done).signal).toBe('SIGKILL');
      expect((await cliWith(env, ...pushArgs(m, killed))).code).toBe(0);
      expect(await state(killed)).toEqual(await state(clean));
      const [n] = await sql(killed, `SELECT count(*)::int AS n FROM entries WHERE entry_id LIKE 'more%'`);
      expect(n!.n).toBe(3);
    });
});
