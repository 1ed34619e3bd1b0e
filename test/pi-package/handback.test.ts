/**
 * Forks handed back live: Canopy's side (electron/repo/pi-handback.ts) offers a fork to a pi running
 * the package (pi 1.6.0 through its SDK); pi asks its user and calls its own switchSession only on yes.
 */
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handBack, livePis, offerFork } from '../../electron/repo/pi-handback';
import { recordingActions, startPi, type PiRun } from './pi-harness';

let dir: string;
let pi: PiRun;
let source: string;
let fork: string;
const asked: string[] = [];
const switched: string[] = [];
let answer = false;
const catalog = (rows: Record<string, { path: string; parentSessionPath: string | null }>) => ({
  rowOf: (id: string) => rows[id] as never,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'canopy-pi-handback-'));
  vi.stubEnv('PI_CODING_AGENT_DIR', join(dir, 'agent'));
  vi.stubEnv('CANOPY_PI_DIR', join(dir, 'run'));
  pi = await startPi({
    cwd: dir,
    agentDir: join(dir, 'agent'),
    persist: true,
    turns: [{ text: 'first reply' }],
    ui: {
      confirm: async (title: string, message: string) => {
        asked.push(`${title}: ${message}`);
        return answer;
      },
    },
    actions: recordingActions(switched),
  });
  await pi.prompt('hello');
  source = pi.sessionFile()!;
  // A fork Canopy wrote next to it (its content does not matter to the handback).
  fork = join(dirname(source), `fork-${basename(source)}`);
  await copyFile(source, fork);
}, 120_000);

afterAll(async () => {
  pi?.dispose();
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const rows = () => catalog({ f1: { path: fork, parentSessionPath: source } });

describe('forks handed back live', () => {
  it('pi announces itself in a private folder (0700) with its session; Canopy finds it for the fork', async () => {
    const run = join(dir, 'run');
    expect((await import('node:fs')).statSync(run).mode & 0o777).toBe(0o700);
    expect(await readdir(run)).toEqual(expect.arrayContaining([`${process.pid}.json`, `${process.pid}.sock`]));
    const r = await handBack(rows(), { sessionId: 'f1', send: false });
    expect(r).toEqual({ pi: { pid: process.pid, sessionFile: source }, status: null });
    // Nothing was offered: pi asked nothing.
    expect(asked).toEqual([]);
  });

  it('the user says no in pi: pi stays in its session', async () => {
    answer = false;
    const r = await handBack(rows(), { sessionId: 'f1', send: true });
    expect(r.status).toBe('asked');
    await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 10_000 });
    expect(asked[0]).toContain(fork);
    await new Promise((r) => setTimeout(r, 200));
    expect(switched).toEqual([]);
  });

  it("the user says yes: pi's own switchSession gets the fork", async () => {
    answer = true;
    expect((await handBack(rows(), { sessionId: 'f1', send: true })).status).toBe('asked');
    await vi.waitFor(() => expect(switched).toEqual([fork]), { timeout: 10_000 });
    expect(asked).toHaveLength(2);
  });

  it('refused before asking: a wrong token, a file outside the session folder, a file that is not there', async () => {
    const [target] = await livePis();
    expect(await offerFork({ ...target!, token: 'x'.repeat(32) }, fork)).toEqual({ ok: false, status: 'forbidden' });
    const outside = join(dir, 'elsewhere.jsonl');
    await copyFile(source, outside);
    expect(await offerFork(target!, outside)).toEqual({ ok: false, status: "not in this pi's session folder" });
    expect(await offerFork(target!, join(dirname(source), 'gone.jsonl'))).toEqual({
      ok: false,
      status: 'no such file',
    });
    expect(asked).toHaveLength(2);
  });

  it('a pi that ended (its process gone, its announcement left behind) is not offered anything', async () => {
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    const gone = Number(ended.stdout);
    const announcement = JSON.parse(await readFile(join(dir, 'run', `${process.pid}.json`), 'utf8'));
    const stale = join(dir, 'stale');
    await mkdir(stale, { mode: 0o700 });
    await writeFile(join(stale, `${gone}.json`), JSON.stringify({ ...announcement, pid: gone }));
    await writeFile(join(stale, `${process.pid}.json`), JSON.stringify(announcement));
    expect((await livePis({ CANOPY_PI_DIR: stale })).map((p) => p.pid)).toEqual([process.pid]);
  });

  it('a folder others can open is not read (its announcements could point anywhere)', async () => {
    const open = join(dir, 'open');
    await mkdir(open, { recursive: true });
    await copyFile(join(dir, 'run', `${process.pid}.json`), join(open, 'x.json'));
    await chmod(open, 0o777);
    expect(await livePis({ CANOPY_PI_DIR: open })).toEqual([]);
    await chmod(open, 0o700);
    expect(await livePis({ CANOPY_PI_DIR: open })).toHaveLength(1);
  });
});
