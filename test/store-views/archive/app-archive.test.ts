/**
 * The app's side of the archive: three store.archive calls at once (one moves, the others are told
 * another archive runs; no orphan folder), and an archive a kill -9 cut is finished when the app
 * starts, before anything else is archived.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../electron/app-services';
import { canopyChild, placeProblems, writeFixture } from './archive-fixture';

let base: string;
let agent: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'canopy-app-archive-'));
  agent = join(base, 'agent');
  mkdirSync(agent);
  process.env.PI_CODING_AGENT_DIR = agent;
  await canopyChild(['--version'], {});
}, 300_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function trial() {
  const dir = mkdtempSync(join(base, 't-'));
  const data = join(dir, 'data');
  return { fx: writeFixture(dir), data, env: { ...process.env, CANOPY_DATA_DIR: data } };
}

describe('store.archive in the app', () => {
  it('three calls at once: one archives, the others are refused by the lock; no orphan folder', async () => {
    const { fx, data, env } = trial();
    const app = createAppServices({ roots: [fx.root], transport: 'http', watch: false, env });
    try {
      const preview = await app.handlers['store.archivePreview']({ staleDays: 30 });
      const ids = preview.families.map((f) => f.familyId);
      const runs = await Promise.allSettled(
        [0, 1, 2].map(() => app.handlers['store.archive']({ staleDays: 30, familyIds: ids })),
      );
      const ok = runs.filter((r) => r.status === 'fulfilled');
      expect(ok).toHaveLength(1);
      for (const r of runs)
        if (r.status === 'rejected') expect(String(r.reason)).toMatch(/another archive or restore is running/);
      const archive = join(data, 'archive');
      expect(readdirSync(archive)).toHaveLength(ids.length);
      expect(placeProblems(fx, archive)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('an archive cut by kill -9 is finished when the app starts', async () => {
    const { fx, data, env } = trial();
    const dest = join(data, 'archive');
    const run = await canopyChild(['archive', '--root', fx.root, '--stale-days', '30', '--to', dest, '--yes'], {
      CANOPY_DATA_DIR: data,
      PI_CODING_AGENT_DIR: agent,
      CANOPY_ARCHIVE_DIE_AT: 'archive:removed#2',
    });
    expect(run.signal).toBe('SIGKILL');
    expect(existsSync(join(data, 'archive-journal.jsonl'))).toBe(true);
    const app = createAppServices({ roots: [fx.root], transport: 'http', watch: false, env });
    try {
      for (let i = 0; i < 500 && existsSync(join(data, 'archive-journal.jsonl')); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(join(data, 'archive-journal.jsonl'))).toBe(false);
      expect(placeProblems(fx, dest)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
