/**
 * `canopy archive`: only whole stale fork families move (to a folder outside the roots, with a
 * preview first), a family written since the preview stays, and restore brings files back byte-equal.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveFamilies, planArchive } from '../../electron/store-views/archive';
import { cli } from '../cli/run-cli';
import { writePiStore, type PiStore } from './pi-store';

let tmp: string;
let store: PiStore;
let bytes: Map<string, Buffer>;
const old = (Date.now() - 40 * 86_400_000) / 1000;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-archive-'));
  store = await writePiStore(join(tmp, 'sessions'));
  bytes = new Map(Object.values(store.files).map((f) => [f, readFileSync(f)]));
  for (const f of [store.files.a, store.files.fork, store.files.other]) utimesSync(f, old, old);
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('canopy archive', () => {
  it('previews, then moves only whole stale families out of the root, and restores them byte-equal', async () => {
    const to = join(tmp, 'archive');
    const preview = await cli('archive', '--root', store.root, '--stale-days', '30', '--to', to, '--json');
    expect(preview.code).toBe(0);
    const families = preview.json.filter((l) => l.family);
    // The fork family has a clone written today: it stays whole; only the lone old session goes.
    expect(families.map((f) => f.sessions.map((s: { path: string }) => s.path))).toEqual([[store.files.other]]);
    expect(preview.json.at(-1)!.bytes).toBe(bytes.get(store.files.other)!.length);
    expect(existsSync(store.files.other)).toBe(true);
    expect(existsSync(to)).toBe(false);

    const moved = await cli('archive', '--root', store.root, '--stale-days', '30', '--to', to, '--yes', '--json');
    expect(moved.code).toBe(0);
    expect(existsSync(store.files.other)).toBe(false);
    for (const f of [store.files.a, store.files.fork, store.files.clone]) expect(existsSync(f)).toBe(true);
    const folder = moved.json[0]!.folder as string;
    expect(readdirSync(folder).sort()).toEqual(
      ['0-' + store.files.other.split('/').pop(), 'canopy-archive.json'].sort(),
    );

    utimesSync(store.files.clone, old, old);
    const again = await cli('archive', '--root', store.root, '--stale-days', '30', '--to', to, '--yes', '--json');
    const family = again.json[0]!.folder as string;
    for (const f of [store.files.a, store.files.fork, store.files.clone]) expect(existsSync(f)).toBe(false);

    for (const dir of [folder, family]) {
      const r = await cli('archive', '--root', store.root, '--restore', dir, '--json');
      expect(r.code).toBe(0);
    }
    for (const [f, b] of bytes) expect(readFileSync(f).equals(b), f).toBe(true);
    // Restoring twice finds the files in place and refuses to overwrite them.
    expect((await cli('archive', '--root', store.root, '--restore', family, '--json')).code).toBe(1);
  });

  it('keeps a family written since the preview, and refuses an archive folder inside a root', async () => {
    for (const f of Object.values(store.files)) utimesSync(f, old, old);
    const plan = await planArchive([store.root], 30);
    expect(plan.families).toHaveLength(2);
    utimesSync(store.files.fork, new Date(), new Date());
    const out = await archiveFamilies({
      families: plan.families,
      staleDays: 30,
      archiveDir: join(tmp, 'archive2'),
      roots: [store.root],
      dataDir: join(tmp, 'data'),
    });
    const kept = out.find((o) => !o.moved)!;
    expect(kept.skipped).toMatch(/written \d+ s ago/);
    for (const f of [store.files.a, store.files.fork, store.files.clone]) expect(existsSync(f)).toBe(true);
    expect(existsSync(store.files.other)).toBe(false);
    const inside = await cli('archive', '--root', store.root, '--stale-days', '30', '--to', join(store.root, 'x'));
    expect(inside.code).toBe(2);
  });
});
