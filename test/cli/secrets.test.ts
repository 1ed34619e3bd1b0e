import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import { writePlantedSession } from '../fixtures/secrets/session';
import { header, projectDirName, tempDir, user, writeSession } from '../repo/helpers';

beforeEach(async () => {
  vi.stubEnv('PI_CODING_AGENT_DIR', await tempDir('canopy-agent-'));
  vi.stubEnv('CANOPY_CACHE_DIR', await tempDir('canopy-cache-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('canopy secrets', () => {
  it('--json: one masked finding per line with path, sessionId, entryId, physical line, rule; exit 1', async () => {
    const root = await tempDir('canopy-root-');
    const s = await writePlantedSession(join(root, projectDirName('/work/proj')), 4);
    await writeSession(join(root, projectDirName('/q')), 'clean.jsonl', [
      header('s2', '/q'),
      user('u1', null, 'hello'),
    ]);
    const r = await cli('secrets', '--root', root, '--json');
    expect(r.code).toBe(1);
    const lines = (await readFile(s.path, 'utf8')).split('\n');
    for (const p of s.plants) {
      const hit = r.json.find((j) => j.entryId === p.entryId && j.rule === p.rule);
      expect(hit, `${p.family} in ${p.place}`).toMatchObject({ path: s.path, sessionId: s.sessionId });
      expect(lines[hit!.line - 1]).toContain(`"id":"${p.entryId}"`);
      expect(hit!.masked).toMatch(/\*{8} \(\d+ chars\)$/);
    }
    const printed = r.out + r.err;
    for (const p of s.plants) expect(printed).not.toContain(p.value);
    // Without --json too: masked only.
    const plain = await cli('secrets', s.path);
    expect(plain.code).toBe(1);
    for (const p of s.plants) expect(plain.out + plain.err).not.toContain(p.value);
  });

  it('exit 0 for clean sessions, 2 for a FILE that is not a session (the others still scanned)', async () => {
    const root = await tempDir('canopy-root-');
    const clean = await writeSession(join(root, projectDirName('/q')), 'clean.jsonl', [
      header('s2', '/q'),
      user('u1', null, 'session id 0e7c2a4e-3f1b-4c2d-9a8b-7c6d5e4f3a2b'),
    ]);
    expect((await cli('secrets', clean)).code).toBe(0);
    const bad = await cli('secrets', clean, join(root, 'missing.jsonl'));
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/missing\.jsonl: not scanned/);
  });
});
