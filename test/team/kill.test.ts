/**
 * A push SIGKILLed at each step of a session's transaction (the rows written, the offset moved, the
 * commit sent), then pushed again: the database ends exactly as one clean push leaves it.
 */
import { appendFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
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
