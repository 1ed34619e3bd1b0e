/**
 * `canopy serve --db`: the team database's union listed read-only beside the local roots, one root
 * per machine, a fork and its parent on two machines one family, usage counting the copies once.
 */
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { teamRoots } from '../../electron/cli/serve-team';
import { usageReport } from '../../electron/store-views';
import { PG_SKIP_REASON } from './pg-cluster';
import { cliWith, freshDb, pushAs, useCluster } from './team-helpers';
import { SECRETS, twoMachines } from './team-fixture';
import { readFile } from 'node:fs/promises';

const quietIo = () => {
  let err = '';
  return { io: { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } }, err: () => err };
};

describe.skipIf(PG_SKIP_REASON !== null)('canopy serve --db', () => {
  const cluster = useCluster();

  it('lists both machines’ pushed sessions read-only, the cross-machine fork in its family', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    await pushAs(m.a, m.piHome, url);
    await pushAs(m.b, m.piHome, url);
    const q = quietIo();
    const team = await teamRoots({ values: { db: url }, positionals: [] }, [m.piHome], q.io);
    expect(q.err()).toMatch(/^canopy serve: 2 sessions of 2 machines from postgres:\/\/canopy_test:\*\*\*\*@/);
    expect(Array.isArray(team) && team.map((d) => d.split('/').pop())).toEqual(['box-b', 'laptop-a']);
    const roots = team as string[];
    const services = createAppServices({ roots, readOnlyRoots: roots, transport: 'http', watch: false });
    try {
      const listing = await services.catalog.list();
      expect(listing.sessions).toHaveLength(2);
      const parent = listing.sessions.find((s) => s.path.includes('/laptop-a/'))!;
      const fork = listing.sessions.find((s) => s.path.includes('/box-b/'))!;
      expect(fork.parentSessionId).toBe(parent.sessionId);
      expect(services.catalog.readOnlyReason(fork.sessionId)).toMatch(/team database is read-only/);
      const text = await readFile(parent.path, 'utf8');
      for (const raw of Object.values(SECRETS)) expect(text).not.toContain(raw);
    } finally {
      await services.close();
    }
    const mirrored = await usageReport(roots, { by: ['model'] });
    const local = await cliWith(
      { PI_CODING_AGENT_DIR: m.piHome },
      ...['usage', '--root', m.a.root, '--root', m.b.root, '--json'],
    );
    const total = local.json.find((j) => j.kind === 'total')!.total as Record<string, number>;
    expect({ messages: mirrored.total.messages, cost: mirrored.total.cost }).toEqual({
      messages: total.messages,
      cost: total.cost,
    });
  });

  it('an unreachable database is one line and exit 3 before anything is served', async () => {
    const q = quietIo();
    const url = cluster().url({ password: 'nope-wrong-pw' });
    expect(await teamRoots({ values: { db: url }, positionals: [] }, [], q.io)).toBe(3);
    expect(q.err()).toMatch(/^canopy serve: the team database at \S+ refused the credentials\n$/);
    expect(q.err()).not.toContain('nope-wrong-pw');
  });
});
