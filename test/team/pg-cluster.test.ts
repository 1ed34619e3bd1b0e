import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SKIP_REASON, startCluster, type PgCluster } from './pg-cluster';

describe.skipIf(PG_SKIP_REASON !== null)('the throwaway PostgreSQL cluster', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(() => cluster?.destroy());

  it('answers on 127.0.0.1 with the password and refuses a wrong one', async () => {
    const ok = new pg.Client({ connectionString: cluster.url() });
    await ok.connect();
    expect((await ok.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    await ok.end();
    const bad = new pg.Client({ connectionString: cluster.url({ password: 'wrong' }) });
    await expect(bad.connect()).rejects.toMatchObject({ code: '28P01' });
    await bad.end().catch(() => undefined);
  });
});
