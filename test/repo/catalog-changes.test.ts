import { appendFile, copyFile, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../electron/repo/catalog';
import { EventBus } from '../../electron/repo/event-bus';
import type { Events } from '../../electron/shared/contract';
import type { SessionsChangeDto } from '../../electron/shared/dto';
import {
  assistant,
  branchedSession,
  header,
  jsonl,
  projectDirName,
  sampleRoot,
  sessionsOf,
  tempDir,
  user,
  writeSession,
} from './helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';

async function setup() {
  const { root, files } = await sampleRoot();
  const bus = new EventBus();
  const changes: Array<Events['sessions.changed']> = [];
  bus.subscribe((event, payload) => {
    if (event === 'sessions.changed') changes.push(payload as Events['sessions.changed']);
  });
  const catalog = new SessionCatalog({ roots: [root], bus });
  const rowChanges: SessionsChangeDto[] = [];
  catalog.onRowsChanged((c) => rowChanges.push(c));
  return { root, files, catalog, changes, rowChanges };
}

describe('the catalog applies changes row by row', () => {
  it('an append changes only its row (size, mtime, summary continued) and keeps the listing', async () => {
    const { files, catalog, changes, rowChanges } = await setup();
    const listing = await catalog.list();
    const before = (await catalog.summaries([BRANCHED]))[BRANCHED]!;
    const others = listing.sessions.filter((r) => r.sessionId !== BRANCHED);
    await appendFile(files.branched!, `${JSON.stringify(assistant('a9', 'n1', 'appended'))}\n`);
    await catalog.followChanges([files.branched!]);

    expect(changes).toHaveLength(1);
    const change = changes[0]!.change!;
    expect(changes[0]!.reason).toBe('changed');
    expect(change.added).toEqual([]);
    expect(change.removed).toEqual([]);
    expect(change.changed.map((r) => r.sessionId)).toEqual([BRANCHED]);
    const row = change.changed[0]!;
    const size = (await stat(files.branched!)).size;
    expect(row.sizeBytes).toBe(size);
    expect(row.summary?.entryCount).toBe(before.entryCount + 1);
    expect(row.summary?.messageCount).toBe(before.messageCount + 1);
    expect(rowChanges).toEqual([change]);
    // The same listing, patched in place: no relisting, the other rows untouched.
    const after = await catalog.list();
    expect(after).toBe(listing);
    expect(after.sessions.find((r) => r.sessionId === BRANCHED)?.sizeBytes).toBe(size);
    expect(after.sessions.filter((r) => r.sessionId !== BRANCHED)).toEqual(others);

    // A batch that names the file again without a change (our own write echoed) publishes nothing.
    await catalog.followChanges([files.branched!]);
    expect(changes).toHaveLength(1);
  });

  it('a new file is added with its row and its parent link; a removed one leaves by id', async () => {
    const { root, files, catalog, changes } = await setup();
    const listing = await catalog.list();
    const dir = join(root, projectDirName('/home/alice/proj'));
    const childId = '019c0000-0000-7000-8000-0000000000c1';
    const child = await writeSession(dir, `2026-03-05T10-00-00-000Z_${childId}.jsonl`, [
      header(childId, '/home/alice/proj', { parentSession: files.branched! }),
      user('c1', null, 'child'),
    ]);
    await catalog.followChanges([child]);
    const added = changes.at(-1)!;
    expect(added.reason).toBe('added');
    expect(added.change!.added.map((r) => [r.sessionId, r.parentSessionId])).toEqual([[childId, BRANCHED]]);
    expect(added.change!.projects.find((p) => p.cwd === '/home/alice/proj')?.sessionCount).toBe(2);
    expect((await catalog.list()).sessions.map((r) => r.sessionId)).toContain(childId);

    await rm(files.branched!);
    await catalog.followChanges([files.branched!]);
    const removed = changes.at(-1)!.change!;
    expect(removed.removed).toEqual([BRANCHED]);
    // The child's parent is gone from the listing: its link is cleared, and the change says so.
    expect(removed.changed.map((r) => [r.sessionId, r.parentSessionId])).toEqual([[childId, null]]);
    expect(await catalog.list()).toBe(listing);
    expect(listing.sessions.map((r) => r.sessionId)).not.toContain(BRANCHED);
  });

  it('a fork written by the catalog answers with its row and publishes it once', async () => {
    const { catalog, changes } = await setup();
    await catalog.list();
    const fork = await sessionsOf(catalog).fork(BRANCHED, { kind: 'fork', entryId: 'a2', position: 'at' });
    expect(fork.row?.sessionId).toBe(fork.sessionId);
    expect(fork.row?.parentSessionId).toBe(BRANCHED);
    expect(changes.map((c) => c.change?.added.map((r) => r.sessionId))).toEqual([[fork.sessionId]]);
    // The watcher's echo of that write changes nothing.
    await catalog.followChanges([fork.path]);
    expect(changes).toHaveLength(1);
  });

  it('a copy of a session that appears in the store never takes the listed id', async () => {
    const { root, files, catalog } = await setup();
    await catalog.list();
    const copy = join(root, projectDirName('/home/alice/proj'), '0000-copy.jsonl');
    await copyFile(files.branched!, copy);
    await catalog.followChanges([copy]);
    const rows = (await catalog.list()).sessions;
    expect(rows.find((r) => r.path === files.branched)?.sessionId).toBe(BRANCHED);
    expect(rows.find((r) => r.path === copy)?.sessionId).toMatch(new RegExp(`^${BRANCHED}~[0-9a-f]{8}$`));
  });
});

describe('uploads', () => {
  it('an uploaded copy of a listed session gets its own key; the link keeps opening the real file', async () => {
    // A root whose path sorts after the upload folder's (`canopy-uploads-…`): path order alone would give the copy the id.
    const root = await tempDir('canopy-zz-');
    const path = await writeSession(join(root, projectDirName('/p')), `2026-03-01T10-00-00-000Z_${BRANCHED}.jsonl`, [
      ...branchedSession(BRANCHED, '/p'),
    ]);
    const files = { branched: path };
    const catalog = new SessionCatalog({ roots: [root] });
    await catalog.list();
    const text = await readFile(files.branched, 'utf8');
    const { sessionId } = await catalog.upload(
      'copy.jsonl',
      `${text}${jsonl([assistant('z9', 'n1', 'only in the copy')])}`,
    );
    expect(sessionId).not.toBe(BRANCHED);
    expect(sessionId.startsWith(`${BRANCHED}~`)).toBe(true);
    // `#/session/<id>` still names the real file, after a full relisting too.
    for (const refresh of [false, true]) {
      const rows = (await catalog.list(refresh)).sessions;
      expect(rows.find((r) => r.sessionId === BRANCHED)?.path).toBe(files.branched);
      expect(rows.find((r) => r.sessionId === sessionId)?.origin).toBe('uploaded');
    }
    const graph = await sessionsOf(catalog).graph(BRANCHED);
    expect(graph.path).toBe(files.branched);
    expect(graph.entries.ids).not.toContain('z9');
    catalog.close();
  });
});
