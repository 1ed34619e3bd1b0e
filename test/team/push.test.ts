/**
 * `canopy push` from two machines into one real PostgreSQL: the union, lineage across machines,
 * usage counting fork copies once, redaction read back with SQL, images as placeholders,
 * tombstones, idempotence and appends.
 */
import { appendFile, rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PG_SKIP_REASON } from './pg-cluster';
import { cliWith, dumpTables, entriesSum, freshDb, pushAs, sql, useCluster } from './team-helpers';
import { IMAGE_BYTES, moreLines, SECRETS, twoMachines } from './team-fixture';

describe.skipIf(PG_SKIP_REASON !== null)('canopy push into a team database', () => {
  const cluster = useCluster();

  it('two machines make one union; a fork of the other machine’s session is one family', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const a = await pushAs(m.a, m.piHome, url, '--json');
    expect(a.err).toBe('');
    expect(a.code).toBe(0);
    expect(a.json[0]).toMatchObject({ kind: 'push', sessions: 1, pushed: 1, entries: 7, tombstoned: 0 });
    expect((await pushAs(m.b, m.piHome, url)).code).toBe(0);
    const sessions = await sql(url, 'SELECT machine, os_user, file_name FROM sessions ORDER BY machine');
    expect(sessions.map((s) => s.machine)).toEqual(['box-b', 'laptop-a']);
    const family = await sql(
      url,
      `SELECT c.machine AS child, p.machine AS parent FROM sessions c JOIN sessions p ON p.file_name = c.parent_file`,
    );
    expect(family).toEqual([{ child: 'box-b', parent: 'laptop-a' }]);
    const status = await cliWith({}, 'db', 'status', '--db', url, '--json');
    expect(status.json[0]).toMatchObject({ schemaVersion: 1, machines: 2, sessions: 2, entries: 11 });
  });

  it('usage_daily counts a fork’s copies once, as `canopy usage` does over both roots', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    await pushAs(m.a, m.piHome, url);
    await pushAs(m.b, m.piHome, url);
    const local = await cliWith(
      { PI_CODING_AGENT_DIR: m.piHome },
      ...['usage', '--root', m.a.root, '--root', m.b.root, '--json'],
    );
    const total = local.json.find((j) => j.kind === 'total')!.total as Record<string, number>;
    const [db] = await sql(
      url,
      'SELECT sum(records)::int AS records, sum(cost) AS cost, sum(input)::int AS input FROM usage_daily',
    );
    // a1 (copied into the fork) once, a2, b1: 0.25 + 0.5 + 0.125.
    expect(total.messages).toBe(3);
    expect(db).toEqual({ records: total.messages, cost: total.cost, input: total.input });
    expect(db!.cost).toBeCloseTo(0.875, 9);
  });

  it('planted secrets never reach the database; images are sized placeholders', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const r = await pushAs(m.a, m.piHome, url, '--json');
    expect(r.json[0]!.redactions).toBeGreaterThanOrEqual(8);
    await pushAs(m.b, m.piHome, url);
    const everything = (
      await sql<{ t: string }>(
        url,
        `SELECT s::text AS t FROM sessions s UNION ALL SELECT e::text FROM entries e
         UNION ALL SELECT u::text FROM usage_daily u UNION ALL SELECT a::text FROM activity_daily a`,
      )
    )
      .map((x) => x.t)
      .join('\n');
    for (const [where, raw] of Object.entries(SECRETS)) expect(everything.includes(raw), where).toBe(false);
    expect(everything).toContain(`[image: ${IMAGE_BYTES} bytes]`);
    expect(everything).not.toContain(Buffer.alloc(64, 7).toString('base64'));
    // What is not secret still arrives: the texts around the secrets, the tree's shape.
    expect(everything).toContain('a new answer on B');
    const [t1] = await sql(url, `SELECT parent_id FROM entries WHERE machine = 'laptop-a' AND entry_id = 't1'`);
    expect(t1!.parent_id).toBe('a1');
  });

  it('--no-redact says so and sends the contents as they are; --keep-images keeps the data', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    const r = await pushAs(m.a, m.piHome, url, '--no-redact', '--keep-images');
    expect(r.err).toMatch(/--no-redact: sessions leave this machine unredacted/);
    const [row] = await sql(url, `SELECT count(*)::int AS n FROM entries WHERE body::text LIKE $1`, [
      `%${SECRETS.awsInText}%`,
    ]);
    expect(row!.n).toBe(1);
    const [img] = await sql(url, `SELECT count(*)::int AS n FROM entries WHERE body::text LIKE '%[image:%'`);
    expect(img!.n).toBe(0);
  });

  it('pushing twice changes nothing; an append adds exactly its rows; a deleted file becomes a tombstone', async () => {
    const m = await twoMachines();
    const url = await freshDb(cluster());
    await pushAs(m.a, m.piHome, url);
    await pushAs(m.b, m.piHome, url);
    const before = await dumpTables(url);
    const again = await pushAs(m.b, m.piHome, url, '--json');
    expect(again.json[0]).toMatchObject({ pushed: 0, entries: 0, tombstoned: 0 });
    await pushAs(m.a, m.piHome, url);
    expect(await dumpTables(url)).toBe(before);

    const old = await entriesSum(url, 'box-b');
    await appendFile(m.fork, moreLines('b1', 2));
    const r = await pushAs(m.b, m.piHome, url, '--json');
    expect(r.json[0]).toMatchObject({ pushed: 1, entries: 2 });
    const lines = await sql(url, `SELECT line, parent_id FROM entries WHERE machine = 'box-b' ORDER BY line`);
    expect(lines.map((l) => l.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(lines[4]!.parent_id).toBe('b1');
    const kept = await sql(
      url,
      `SELECT md5(string_agg(path || ':' || line || ':' || entry_id, ',' ORDER BY path, line)) AS sum
       FROM entries WHERE machine = 'box-b' AND line <= 5`,
    );
    expect(kept[0]!.sum).toBe(old.sum);

    await rm(m.fork);
    const gone = await pushAs(m.b, m.piHome, url, '--json');
    expect(gone.json[0]).toMatchObject({ sessions: 0, tombstoned: 1 });
    const [s] = await sql(url, `SELECT tombstone IS NOT NULL AS dead FROM sessions WHERE machine = 'box-b'`);
    expect(s!.dead).toBe(true);
    const views = await sql(url, `SELECT DISTINCT machine FROM storage_by_session`);
    expect(views).toEqual([{ machine: 'laptop-a' }]);
  });
});
