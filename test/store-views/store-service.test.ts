/**
 * The app's store channels: store.report fills in the background with progress events and agrees
 * with the CLI; store.slimPreview counts what store.slim then writes, and the copy is listed.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { validators } from '../../electron/shared/validate';
import { OpenGate } from '../../electron/threads/open-gate';
import { StoreService } from '../../electron/store-views/store-service';
import type { StoreReportDto } from '../../electron/shared/store-dto';
import { cli } from '../cli/run-cli';
import { writePiStore, type PiStore } from './pi-store';

let tmp: string;
let store: PiStore;
let app: AppServices;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-store-service-'));
  store = await writePiStore(join(tmp, 'sessions'));
  app = createAppServices({ roots: [store.root], transport: 'http', watch: false });
}, 60_000);
afterAll(async () => {
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function finished(): Promise<StoreReportDto> {
  for (let i = 0; i < 200; i++) {
    const r = await app.handlers['store.report']({});
    if (r.state === 'done' || r.state === 'failed') return r;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('store.report never finished');
}

describe('store channels', () => {
  it('computes spend and bytes in the background, naming sessions by catalog id', async () => {
    const events: unknown[] = [];
    const off = app.bus.subscribe((event, payload) => {
      if (event === 'store.progress') events.push(payload);
    });
    const first = await app.handlers['store.report']({});
    expect(first.state).toBe('running');
    const r = await finished();
    off();
    expect(r.state).toBe('done');
    expect(events.at(-1)).toMatchObject({ state: 'done' });
    const listing = await app.catalog.list();
    const ids = new Set(listing.sessions.map((s) => s.sessionId));
    for (const row of r.usage) expect(ids.has(row.sessionId)).toBe(true);
    const cliTotal = (await cli('usage', '--root', store.root, '--json')).json.at(-1)!;
    expect(r.usage.reduce((n, u) => n + u.messages, 0)).toBe(cliTotal.total.messages);
    expect(r.usage.reduce((n, u) => n + u.duplicateMessages, 0)).toBe(cliTotal.duplicates.messages);
    expect(r.unpricedModels).toEqual(['local/qwen-local']);
    const bytes = listing.sessions.reduce((n, s) => n + statSync(s.path).size, 0);
    expect(r.storage.reduce((n, s) => n + s.total, 0)).toBe(bytes);
    expect(JSON.stringify(r)).not.toContain(store.root);
  });

  it('waits while a session opens: no file is read until the open settles', async () => {
    const gate = new OpenGate();
    const service = new StoreService({
      list: () => app.catalog.list(),
      readOnlyReason: () => null,
      addWritten: async () => null,
      gate,
    });
    let release!: () => void;
    const opening = gate.during(new Promise<void>((r) => (release = r)));
    expect((await service.get()).state).toBe('running');
    await new Promise((r) => setTimeout(r, 300));
    expect((await service.get()).done).toBe(0);
    release();
    await opening;
    for (let i = 0; i < 200 && (await service.get()).state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await service.get();
    expect(r.state).toBe('done');
    expect(r.done).toBe(r.total);
    expect(r.total).toBeGreaterThan(0);
  });

  it('previews a slim copy, writes it as a new listed session, and validates its arguments', async () => {
    const listing = await app.catalog.list();
    const other = listing.sessions.find((s) => s.path === store.files.other)!;
    const req = { sessionId: other.sessionId, dropImages: true };
    const preview = await app.handlers['store.slimPreview'](req);
    expect(preview.imagesRemoved).toBe(1);
    const done = await app.handlers['store.slim'](req);
    expect(done).toMatchObject({ ...preview, sessionId: expect.any(String) });
    const after = await app.catalog.list();
    const row = after.sessions.find((s) => s.sessionId === done.sessionId)!;
    expect(statSync(row.path).size).toBe(preview.bytesAfter);
    expect(row.parentSessionId).toBe(other.sessionId);
    expect(() => validators['store.slim']({ sessionId: 'x', dropImages: false })).toThrow(/drops images/);
    expect(() => validators['store.slim']({ sessionId: 'x', dropImages: true, path: '/etc' })).toThrow(/unexpected/);
    await expect(app.handlers['store.slim']({ sessionId: 'nope', dropImages: true })).rejects.toThrow(/no listed/);
  });

  it('archives whole stale families from a preview, outside the roots, and lists what is left', async () => {
    const old = (Date.now() - 40 * 86_400_000) / 1000;
    const all = () =>
      readdirSync(store.root).flatMap((d) => readdirSync(join(store.root, d)).map((f) => join(store.root, d, f)));
    for (const f of all()) utimesSync(f, old, old);
    await app.catalog.list(true);
    const preview = await app.handlers['store.archivePreview']({ staleDays: 30 });
    expect(preview.families).toHaveLength(2);
    expect(preview.bytes).toBe(all().reduce((n, f) => n + statSync(f).size, 0));
    const listing = await app.catalog.list();
    const aId = listing.sessions.find((s) => s.path === store.files.a)!.sessionId;
    const fam = preview.families.find((f) => f.familyId === aId)!;
    expect(fam.sessionIds).toHaveLength(3);
    const r = await app.handlers['store.archive']({ staleDays: 30, familyIds: [aId] });
    expect(r).toMatchObject({ archived: 1, bytes: fam.bytes, kept: 0 });
    expect(r.folders[0]!.startsWith(store.root)).toBe(false);
    // In Canopy's data folder (the cache may be thrown away).
    expect(r.folders[0]!.startsWith(join(process.env.CANOPY_DATA_DIR!, 'archive'))).toBe(true);
    for (const f of [store.files.a, store.files.fork, store.files.clone]) expect(existsSync(f)).toBe(false);
    expect(existsSync(store.files.other)).toBe(true);
    const after = await app.catalog.list();
    expect(after.sessions.some((s) => s.sessionId === aId)).toBe(false);
    expect(() => validators['store.archive']({ staleDays: 0, familyIds: [aId] })).toThrow(/staleDays/);
    const back = await cli('archive', '--root', store.root, '--restore', r.folders[0]!, '--json');
    expect(back.code).toBe(0);
    expect(existsSync(store.files.a)).toBe(true);
  });
});
