import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { Known } from '../../electron/repo/listing-rows';
import { ListingTable } from '../../electron/repo/listing-table';
import { LINEAGE_FORK_POINTS } from '../../electron/repo/session-service';
import type { SessionRowDto } from '../../electron/shared/dto';
import { header, projectDirName, sessionsOf, tempDir, user, writeSession } from './helpers';

function rowOf(sessionId: string, parentSessionId: string | null): Known {
  const path = `/r/${sessionId}.jsonl`;
  const row: SessionRowDto = {
    sessionId,
    cwd: '/p',
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    sizeBytes: 10,
    fileName: `${sessionId}.jsonl`,
    path,
    parentSessionId,
    parentSessionPath: parentSessionId ? `/r/${parentSessionId}.jsonl` : null,
    summary: null,
  };
  return { row, path, aliases: [] };
}

describe('lineage is indexed once per listing change', () => {
  it('a session with 100,000 forks: the children index is built once, whatever the lineage calls', () => {
    const rows = [rowOf('root', null), ...Array.from({ length: 100_000 }, (_, i) => rowOf(`f${i}`, 'root'))];
    const table = new ListingTable();
    table.reset({ projects: [], sessions: rows.map((k) => k.row), skipped: [] }, rows);
    for (let i = 0; i < 1000; i++) expect(table.childrenOf('root')).toHaveLength(100_000);
    expect(table.childIndexBuilds).toBe(1);
    // A change to the rows (a new fork) builds it once more, and it holds the new row.
    table.add(rowOf('g', 'root'));
    expect(table.childrenOf('root')).toHaveLength(100_001);
    expect(table.childrenOf('f1')).toHaveLength(0);
    expect(table.childIndexBuilds).toBe(2);
  });

  it('reads the fork points of a bounded number of children; the rest are listed without one', async () => {
    const root = await tempDir('canopy-lineage-');
    const dir = join(root, projectDirName('/p'));
    const first = user('u1', null, 'q');
    const parent = await writeSession(dir, 'parent.jsonl', [header('parent', '/p'), first]);
    const n = LINEAGE_FORK_POINTS + 5;
    for (let i = 0; i < n; i++) {
      const id = `c${String(i).padStart(4, '0')}`;
      await writeSession(dir, `${id}.jsonl`, [
        header(id, '/p', {
          parentSession: parent,
          timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
        }),
        first,
      ]);
    }
    const catalog = new SessionCatalog({ roots: [root] });
    await catalog.list();
    const lineage = await sessionsOf(catalog).lineage('parent');
    expect(lineage.children).toHaveLength(n);
    const withPoint = lineage.children.filter((c) => c.forkPointEntryId !== null);
    expect(withPoint).toHaveLength(LINEAGE_FORK_POINTS);
    expect(withPoint[0]?.forkPointEntryId).toBe('u1');
    // The parent and the bounded children only were opened.
    expect(catalog.store.paths().length).toBeLessThanOrEqual(LINEAGE_FORK_POINTS + 1);
    catalog.close();
  }, 60_000);
});
