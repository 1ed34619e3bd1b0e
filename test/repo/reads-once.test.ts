/**
 * Open reads a file once; a fork reads its source once and lists nothing. Every read the repo
 * makes goes through storage: the whole-file reads (a scan, a batch read, a tail) and the listing
 * probes are counted here by file.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../electron/repo/event-bus';
import { SessionCatalog } from '../../electron/repo/catalog';
import { assistant, branchedSession, header, projectDirName, tempDir, user, writeSession } from './helpers';
import { sessionsOf } from './helpers';

const reads = vi.hoisted(() => ({ passes: [] as string[], probes: 0, headers: [] as string[] }));

vi.mock('../../electron/storage/line-scan', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../electron/storage/line-scan')>();
  return {
    ...m,
    scanLines: (path: string, ...rest: Parameters<typeof m.scanLines> extends [string, ...infer R] ? R : never) => (
      reads.passes.push(path),
      m.scanLines(path, ...rest)
    ),
  };
});
vi.mock('../../electron/storage/read', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../electron/storage/read')>();
  return {
    ...m,
    readLineBatches: (path: string, opts?: Parameters<typeof m.readLineBatches>[1]) => (
      reads.passes.push(path),
      m.readLineBatches(path, opts)
    ),
    readRange: (path: string, offset: number, length: number) => (
      reads.passes.push(path),
      m.readRange(path, offset, length)
    ),
    readFirstLine: (path: string, ...rest: unknown[]) => (
      reads.headers.push(path),
      (m.readFirstLine as (...a: unknown[]) => ReturnType<typeof m.readFirstLine>)(path, ...rest)
    ),
  };
});
vi.mock('../../electron/storage/tail', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../electron/storage/tail')>();
  return {
    ...m,
    tailFrom: (path: string, ...rest: Parameters<typeof m.tailFrom> extends [string, ...infer R] ? R : never) => (
      reads.passes.push(path),
      m.tailFrom(path, ...rest)
    ),
  };
});
vi.mock('../../electron/storage/header-probe', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../electron/storage/header-probe')>();
  return {
    ...m,
    probeSessionFiles: (...args: Parameters<typeof m.probeSessionFiles>) => (
      reads.probes++,
      m.probeSessionFiles(...args)
    ),
  };
});

const ID = '019c0000-0000-7000-8000-000000000001';

function reset(): void {
  reads.passes.length = 0;
  reads.headers.length = 0;
  reads.probes = 0;
}

describe('reads', () => {
  it('open → previews → context → fork preview → fork: one read of the source, no relisting', async () => {
    const root = await tempDir('canopy-reads-');
    const lines = [...branchedSession(ID), user('u4', 'a3', 'more'), assistant('a4', 'u4', 'reply')];
    const path = await writeSession(
      join(root, projectDirName('/home/alice/proj')),
      `2026-03-01T10-00-00-000Z_${ID}.jsonl`,
      lines,
    );
    const bus = new EventBus();
    const events: string[] = [];
    bus.subscribe((event) => events.push(event));
    const catalog = new SessionCatalog({ roots: [root], bus });
    await catalog.list();
    expect(reads.probes).toBe(1);
    reset();

    const graph = await sessionsOf(catalog).graph(ID);
    expect(graph.entries.previews).toContain('first question');
    expect(reads.passes).toEqual([path]);

    expect((await sessionsOf(catalog).get(ID).previews(['u1', 'a4'])).a4?.preview).toBe('reply');
    expect((await sessionsOf(catalog).get(ID).context()).messages.length).toBeGreaterThan(0);
    const request = { kind: 'fork' as const, entryId: 'u4', position: 'at' as const };
    const preview = await sessionsOf(catalog).forkPreview(ID, request);
    expect(preview.ok).toBe(true);
    const fork = await sessionsOf(catalog).fork(ID, request);
    expect(reads.passes).toEqual([path]);
    // The new row comes from the new file's header alone: no root is listed again.
    expect(reads.probes).toBe(0);
    expect(reads.headers).toEqual([fork.path]);
    expect(events.filter((e) => e === 'sessions.changed')).toHaveLength(1);

    const listing = await catalog.list();
    const row = listing.sessions.find((r) => r.sessionId === fork.sessionId);
    expect(row).toMatchObject({ path: fork.path, parentSessionId: ID, parentSessionPath: path });
    expect(listing.sessions.map((r) => r.sessionId)).toEqual([ID, fork.sessionId]);
    expect(listing.projects).toEqual([expect.objectContaining({ cwd: '/home/alice/proj', sessionCount: 2 })]);
    expect(reads.probes).toBe(0);
    // The same row a full relisting makes.
    const relisted = await new SessionCatalog({ roots: [root] }).list();
    expect(listing).toEqual(relisted);
  });

  it('a second open of an unchanged file reads nothing', async () => {
    const root = await tempDir('canopy-reads-');
    const path = await writeSession(join(root, projectDirName('/p')), 's.jsonl', [
      header(ID, '/p'),
      user('u1', null, 'q'),
    ]);
    const catalog = new SessionCatalog({ roots: [root] });
    await catalog.list();
    reset();
    await sessionsOf(catalog).graph(ID);
    await sessionsOf(catalog).graph(ID);
    await sessionsOf(catalog).flags(ID);
    expect(reads.passes).toEqual([path]);
  });
});
