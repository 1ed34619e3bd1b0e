import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeProgram, type FakeProgram } from './fake-program';
import { startPi, type PiRun } from './pi-harness';

let dir: string;
let app: FakeProgram;
let pi: PiRun;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'canopy-pi-open-'));
  app = await fakeProgram(dir, 'canopy-app');
  vi.stubEnv('PI_CODING_AGENT_DIR', join(dir, 'agent'));
  vi.stubEnv('CANOPY_APP', app.path);
  vi.stubEnv('CANOPY_OPEN', '');
  vi.stubEnv('CANOPY_PI_DIR', join(dir, 'run'));
  pi = await startPi({ cwd: dir, agentDir: join(dir, 'agent'), persist: true, turns: [{ text: 'hello back' }] });
}, 120_000);

afterAll(async () => {
  pi?.dispose();
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('/canopy, loaded by pi 1.6.0, with a fake app that records what it is asked to open', () => {
  it('without a UI pi cannot ask for consent, so it offers Canopy no channel to hand forks back', () => {
    expect(existsSync(join(dir, 'run', `${process.pid}.json`))).toBe(false);
  });

  it('before pi has written the session: Canopy opens on its list (no link to a session that is not there)', async () => {
    await pi.prompt('/canopy');
    const [first] = await app.calls(1);
    expect(first).toEqual([`--root=${join(dir, 'agent', 'sessions')}`]);
  });

  it("opens this session at pi's current leaf (the ids read back from the file pi wrote)", async () => {
    await pi.prompt('hi');
    const file = pi.sessionFile()!;
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    const sessionId = lines[0]!.id!;
    const leaf = lines[lines.length - 1]!.id!;
    await pi.prompt('/canopy');
    const calls = await app.calls(2);
    expect(calls[1]).toEqual([
      `--link=#/session/${sessionId}?entry=${leaf}`,
      `--root=${join(dir, 'agent', 'sessions')}`,
    ]);
  });

  it('/canopy search <query> opens the search panel with the query; a bare /canopy search opens nothing', async () => {
    await pi.prompt('/canopy search deploy "the keys"');
    const calls = await app.calls(3);
    expect(calls[2]![0]).toBe(`--link=#/search?q=${encodeURIComponent('deploy "the keys"')}`);
    await pi.prompt('/canopy search');
    await pi.prompt('/canopy nonsense');
    // Give a wrong start the time to be recorded, then check none was.
    await new Promise((r) => setTimeout(r, 500));
    expect(await app.calls(3)).toHaveLength(3);
  });
});
