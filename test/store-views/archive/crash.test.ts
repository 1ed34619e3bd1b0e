/**
 * kill -9 at every step of an archive and of a restore (a child `canopy` process killed at an injected
 * point), then `canopy archive --resume`: every file is in exactly one place, byte-equal, and a
 * restore brings the whole store back with its mtimes and links. On one file system (hard links)
 * and across two (the archive on /dev/shm: copies).
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../cli/run-cli';
import { canopyChild, fingerprint, placeProblems, writeFixture, type Fixture } from './archive-fixture';

const SHM = '/dev/shm';
let base: string;
let agent: string;
const made: string[] = [];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'canopy-crash-'));
  agent = join(base, 'agent');
  mkdirSync(agent);
  // The default root (pi's) is an empty folder: nothing of the user's is ever planned.
  process.env.PI_CODING_AGENT_DIR = agent;
  // Builds the CLI once when it is stale, before any trial is timed.
  await canopyChild(['--version'], {});
}, 300_000);
afterAll(() => {
  for (const d of [base, ...made]) rmSync(d, { recursive: true, force: true });
});

interface Trial {
  fx: Fixture;
  dest: string;
  data: string;
}

function newTrial(crossFs: boolean): Trial {
  const dir = mkdtempSync(join(base, 't-'));
  const fx = writeFixture(dir);
  const dest = crossFs ? mkdtempSync(join(SHM, 'canopy-archive-')) : join(dir, 'archive');
  if (crossFs) made.push(dest);
  return { fx, dest, data: join(dir, 'data') };
}

const env = (t: Trial, step?: string): Record<string, string> => ({
  CANOPY_DATA_DIR: t.data,
  PI_CODING_AGENT_DIR: agent,
  ...(step ? { CANOPY_ARCHIVE_DIE_AT: step } : {}),
});

async function resume(t: Trial): Promise<void> {
  process.env.CANOPY_DATA_DIR = t.data;
  const r = await cli('archive', '--resume', '--json');
  expect(r.code, r.err).toBe(0);
}

/** Restores every archived folder; the store is then exactly as written (bytes, mtimes, links). */
async function restoreAll(t: Trial): Promise<void> {
  process.env.CANOPY_DATA_DIR = t.data;
  for (const name of existsSync(t.dest) ? readdirSync(t.dest) : []) {
    const r = await cli('archive', '--root', t.fx.root, '--restore', join(t.dest, name), '--json');
    expect(r.code, r.out + r.err).toBe(0);
  }
  expect(existsSync(t.dest) ? readdirSync(t.dest) : []).toEqual([]);
  for (const [path, hash] of t.fx.hashes) {
    expect(fingerprint(path), path).toBe(hash);
    expect(Math.abs(lstatSync(path).mtimeMs - t.fx.mtimes.get(path)!), path).toBeLessThan(1);
  }
  expect(existsSync(t.fx.files.link)).toBe(true); // the relative link resolves again
}

const ARCHIVE_STEPS = [
  'archive:family',
  'archive:place',
  'archive:placed',
  'archive:manifest',
  'archive:commit',
  'unlink',
  'archive:removed',
  'archive:done',
];
const RESTORE_STEPS = [
  'restore:place',
  'restore:placed',
  'restore:commit',
  'unlink',
  'restore:removed',
  'restore:done',
];

describe.each([
  ['one file system', false],
  ['across file systems', true],
])('kill -9, then --resume (%s)', (_name, crossFs) => {
  const steps = [...ARCHIVE_STEPS, ...(crossFs ? ['copy-partial'] : [])];
  it('at every step of an archive: each file in one place, byte-equal; then all restorable', async () => {
    let killed = 0;
    for (const step of steps.flatMap((s) => [`${s}#1`, `${s}#3`])) {
      const t = newTrial(crossFs);
      const run = await canopyChild(
        ['archive', '--root', t.fx.root, '--stale-days', '30', '--to', t.dest, '--yes', '--json'],
        env(t, step),
      );
      if (run.signal === 'SIGKILL') killed++;
      else expect(run.code, `${step}: ${run.err}`).toBe(0);
      await resume(t);
      expect(placeProblems(t.fx, t.dest), step).toEqual([]);
      await restoreAll(t);
    }
    // Each step was reached at least once (the #3 of a rare step may not be).
    expect(killed).toBeGreaterThanOrEqual(steps.length);
  }, 300_000);

  it('at every step of a restore: resumed, the whole family is back and its folder gone', async () => {
    let killed = 0;
    const restoreSteps = [...RESTORE_STEPS, ...(crossFs ? ['copy-partial'] : [])];
    for (const step of restoreSteps.flatMap((s) => [`${s}#1`, `${s}#2`])) {
      const t = newTrial(crossFs);
      process.env.CANOPY_DATA_DIR = t.data;
      const moved = await cli('archive', '--root', t.fx.root, '--stale-days', '30', '--to', t.dest, '--yes', '--json');
      expect(moved.code, moved.err).toBe(0);
      // The fork family (three files), restored in a child that dies.
      const family = readdirSync(t.dest).find((n) => n.startsWith('fam-a'))!;
      const run = await canopyChild(['archive', '--root', t.fx.root, '--restore', join(t.dest, family)], env(t, step));
      if (run.signal === 'SIGKILL') killed++;
      else expect(run.code, `${step}: ${run.err}`).toBe(0);
      await resume(t);
      expect(existsSync(join(t.dest, family)), step).toBe(false);
      expect(placeProblems(t.fx, t.dest), step).toEqual([]);
      await restoreAll(t);
    }
    expect(killed).toBeGreaterThanOrEqual(restoreSteps.length);
  }, 300_000);
});

describe('a run cut in two', () => {
  it('refuses a new run until --resume, in one line with its own exit code', async () => {
    const t = newTrial(false);
    const run = await canopyChild(
      ['archive', '--root', t.fx.root, '--stale-days', '30', '--to', t.dest, '--yes'],
      env(t, 'archive:placed#2'),
    );
    expect(run.signal).toBe('SIGKILL');
    process.env.CANOPY_DATA_DIR = t.data;
    const again = await cli('archive', '--root', t.fx.root, '--stale-days', '30', '--to', t.dest, '--yes');
    expect(again.code).toBe(4);
    expect(again.err.trim().split('\n')).toEqual([expect.stringMatching(/interrupted .*--resume/)]);
    await resume(t);
    expect(placeProblems(t.fx, t.dest)).toEqual([]);
    expect(basename(t.dest)).toBe('archive');
  });
});
