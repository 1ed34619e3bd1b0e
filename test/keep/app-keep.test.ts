/**
 * The keep wing against a real catalog and the real OS trash (the freedesktop trash in a temp
 * XDG_DATA_HOME): records land in the data folder, never in a session file; a family is trashed
 * whole and restored byte for byte.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppKeep } from '../../electron/keep';
import { SessionCatalog } from '../../electron/repo/catalog';
import { EventBus } from '../../electron/repo/event-bus';
import { writeSmallStore, type SmallSession } from '../fixtures/small-store';

const tmp = mkdtempSync(join(tmpdir(), 'canopy-keep-'));
const sessionsDir = join(tmp, 'sessions');
const env = { CANOPY_DATA_DIR: join(tmp, 'data'), XDG_DATA_HOME: join(tmp, 'xdg') };
let store: SmallSession[];
let keep: AppKeep;
const events: unknown[] = [];

const hashes = () =>
  Object.fromEntries(
    store
      .filter((s) => existsSync(s.path))
      .map((s) => [s.path, createHash('sha256').update(readFileSync(s.path)).digest('hex')]),
  );

beforeAll(() => {
  // The trash package reads XDG_DATA_HOME when it is first imported (by the first trashing).
  process.env.XDG_DATA_HOME = env.XDG_DATA_HOME;
  store = writeSmallStore(sessionsDir, 30);
  const bus = new EventBus();
  bus.subscribe((event, payload) => events.push({ event, payload }));
  const catalog = new SessionCatalog({ roots: [sessionsDir], bus });
  keep = new AppKeep({
    roots: [sessionsDir],
    bus,
    list: () => catalog.list(),
    relist: () => catalog.list(true),
    readOnlyReason: (id) => catalog.readOnlyReason(id),
    env,
  });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('keep', () => {
  it('keeps names, tags, pins and notes in the data folder, says what changed, and writes no session file', async () => {
    const before = hashes();
    const s = store[3]!;
    const rec = await keep.set(s.id, { name: 'Release prep', tags: ['ship'], pinned: true, note: 'ask Bob' });
    expect(rec).toMatchObject({ name: 'Release prep', tags: ['ship'], pinned: true, note: 'ask Bob' });
    expect(events).toContainEqual({ event: 'keep.changed', payload: { sessionId: s.id, record: rec } });
    const onDisk = JSON.parse(readFileSync(join(env.CANOPY_DATA_DIR, 'keep.json'), 'utf8'));
    expect(onDisk.records[s.id].name).toBe('Release prep');
    expect(await keep.set(s.id, { name: null, tags: [], pinned: false, note: null })).toBeNull();
    expect((await keep.records())[s.id]).toBeUndefined();
    expect(hashes()).toEqual(before);
    expect(readdirSync(sessionsDir).every((d) => !d.endsWith('.json'))).toBe(true);
  });

  it('previews a family, trashes it whole to the OS trash, and restores it byte for byte', async () => {
    const before = hashes();
    const fork = store.find((s) => s.parentId)!;
    const parent = store.find((s) => s.id === fork.parentId)!;
    const preview = await keep.trashPreview(parent.id, true);
    expect(preview.files.map((f) => [f.sessionId, f.fork])).toEqual([
      [parent.id, false],
      [fork.id, true],
    ]);
    expect(preview.refused).toBeNull();
    const alone = await keep.trashPreview(parent.id, false);
    expect(alone.files.map((f) => f.sessionId)).toEqual([parent.id]);

    const record = await keep.trash(parent.id, true);
    expect(existsSync(parent.path) || existsSync(fork.path)).toBe(false);
    for (const f of record.files)
      expect(f.trashedAs).toMatch(new RegExp(`^${join(env.XDG_DATA_HOME, 'Trash', 'files')}`));
    expect((await keep.trashed())[0]!.id).toBe(record.id);

    const restored = await keep.restore(record.id);
    expect(restored.restoredAt).toBeTruthy();
    expect(hashes()).toEqual(before);
    expect(readdirSync(join(env.XDG_DATA_HOME, 'Trash', 'info'))).toEqual([]);
    await expect(keep.restore(record.id)).rejects.toThrow(/already restored/);
  });
});
