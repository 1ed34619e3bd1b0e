/**
 * The doctor's channels: doctor.examine says what a listed session's damage is and writes nothing;
 * doctor.repair writes the repaired file, listed as a new session whose parent is the source.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { validators } from '../../electron/shared/validate';
import { assistant, linesOf, piRead, piSession, sha, text, user, writeLines } from './pi-sessions';

let tmp: string;
let dir: string;
let damaged: string;
let app: AppServices;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'canopy-app-doctor-'));
  dir = join(tmp, 'sessions', '--home-alice-proj--');
  const file = await piSession(join(tmp, 'elsewhere'), (sm) => {
    sm.appendMessage(user('first question'));
    sm.appendMessage(assistant([text('first answer')]));
    sm.appendMessage(user('second question'));
    sm.appendMessage(assistant([text('second answer')]));
  });
  const lines = linesOf(file);
  await piSession(dir, (sm) => {
    sm.appendMessage(user('a healthy session'));
    sm.appendMessage(assistant([text('indeed')]));
  });
  damaged = writeLines(join(dir, '2026-11-01T09-00-00-000Z_damaged.jsonl'), [
    lines[0]!,
    lines[1]! + lines[2]!,
    ...lines.slice(3),
  ]);
  app = createAppServices({ roots: [join(tmp, 'sessions')], transport: 'http', watch: false });
}, 60_000);
afterAll(async () => {
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('doctor channels', () => {
  it('examines the whole store in the background, keeping the damaged sessions, with progress', async () => {
    const events: unknown[] = [];
    const off = app.bus.subscribe((event, payload) => {
      if (event === 'doctor.progress') events.push(payload);
    });
    const first = await app.handlers['doctor.store']({});
    expect(first.state).toBe('running');
    await app.doctor.store.settled();
    off();
    const done = await app.handlers['doctor.store']({});
    expect(done).toMatchObject({ state: 'done', done: 2, total: 2, problems: [] });
    expect(done.sessions.map((s) => [s.fileName, s.kinds, s.files])).toEqual([
      ['2026-11-01T09-00-00-000Z_damaged.jsonl', ['glued_line'], 1],
    ]);
    expect(events.at(-1)).toEqual({ state: 'done', done: 2, total: 2 });
    expect(readdirSync(dir)).toHaveLength(2); // a preview: nothing written
  });

  it('examines without writing, then repairs into a new listed session', async () => {
    const listing = await app.catalog.list();
    const row = listing.sessions.find((s) => s.path === damaged)!;
    const before = sha(damaged);
    const preview = await app.handlers['doctor.examine']({ sessionId: row.sessionId });
    expect(preview.marks.map((m) => [m.kind, m.line, m.versions])).toEqual([['glued_line', 2, 'pi ≤ 0.84.3']]);
    expect(preview.written).toBe(false);
    expect(preview.files).toHaveLength(1);
    expect(JSON.stringify(preview)).not.toContain(tmp);
    expect(readdirSync(dir)).toHaveLength(2);

    const done = await app.handlers['doctor.repair']({ sessionId: row.sessionId });
    expect(done.written).toBe(true);
    expect(sha(damaged)).toBe(before);
    const added = (await app.catalog.list()).sessions.find((s) => s.sessionId === done.files[0]!.sessionId)!;
    expect(added.parentSessionId).toBe(row.sessionId);
    expect((await piRead(added.path, join(tmp, 'scratch'))).context.messages).toHaveLength(4);
    expect(() => validators['doctor.repair']({ sessionId: row.sessionId, path: '/etc' })).toThrow(/unexpected/);
    await expect(app.handlers['doctor.examine']({ sessionId: 'nope' })).rejects.toThrow(/no listed/);
  });

  it('offers no repair of a read-only session (demo sessions), and refuses one asked for', async () => {
    const demo = createAppServices({
      roots: [join(tmp, 'none')],
      demoDir: join(tmp, 'sessions'),
      transport: 'http',
      watch: false,
    });
    try {
      const row = (await demo.catalog.list()).sessions.find((s) => s.path === damaged)!;
      const r = await demo.handlers['doctor.examine']({ sessionId: row.sessionId });
      expect(r.readOnly).toMatch(/read-only/);
      await expect(demo.handlers['doctor.repair']({ sessionId: row.sessionId })).rejects.toThrow(/read-only/);
      demo.handlers['doctor.store']({});
      await demo.doctor.store.settled();
      const store = await demo.handlers['doctor.store']({});
      expect(store.sessions.map((s) => [s.fileName, s.readOnly !== undefined])).toEqual([[row.fileName, true]]);
    } finally {
      await demo.close();
    }
  });
});
