/**
 * The archive against what a user's machine does meanwhile: an appender racing each step of the
 * move, a taken name at restore, a forged manifest, two runs at once, duplicate and very long ids,
 * a destination that is a file. Each is one clear line, and no file is lost or duplicated.
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { archiveFamilies, ArchiveError, setStepHook } from '../../../electron/store-views/archive';
import { cli } from '../../cli/run-cli';
import { header, jsonl, user } from '../../repo/helpers';
import { fingerprint, OLD_S, placeProblems, writeFixture, type Fixture } from './archive-fixture';

let base: string;
const shm: string[] = [];

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'canopy-archive-run-'));
  mkdirSync(join(base, 'agent'));
  process.env.PI_CODING_AGENT_DIR = join(base, 'agent');
});
afterEach(() => setStepHook(null));
afterAll(() => {
  for (const d of [base, ...shm]) rmSync(d, { recursive: true, force: true });
});

/** A fixture; its archive folder beside it, or on /dev/shm (another file system: copies, not links). */
function setup(crossFs = false): { fx: Fixture; dest: string; data: string } {
  const dir = mkdtempSync(join(base, 't-'));
  const data = join(dir, 'data');
  process.env.CANOPY_DATA_DIR = data;
  const dest = crossFs ? join(mkdtempSync('/dev/shm/canopy-race-'), 'archive') : join(dir, 'archive');
  if (crossFs) shm.push(dirname(dest));
  return { fx: writeFixture(dir), dest, data };
}

const archive = (fx: Fixture, dest: string, ...more: string[]) =>
  cli('archive', '--root', fx.root, '--stale-days', '30', '--to', dest, '--yes', '--json', ...more);

const line = JSON.stringify({ type: 'message', id: 'late', parentId: 'fam-f-u1', timestamp: '2026-03-02T00:00:00Z' });

describe.each([
  ['', false],
  [' across file systems', true],
])('an appender racing the archive%s', (_name, crossFs) => {
  // Members go in path order (a, clone, fork): `unlink` with a and clone gone is the fork's own.
  it.each([
    ['archive:placed', 0],
    ['archive:manifest', 0],
    ['archive:commit', 0],
    ['unlink', 0],
    ['unlink', 2],
  ])(
    'a write at %s (%i members gone) keeps the family whole in the root, its late line in place, said clearly',
    async (step, gone) => {
      const { fx, dest } = setup(crossFs);
      const before = readFileSync(fx.files.fork);
      const goneNow = () => [fx.files.a, fx.files.clone].filter((f) => !existsSync(f)).length;
      setStepHook((s) => {
        // Only while the fork family moves (its folder made, the fork still in the root).
        const moving = existsSync(dest) && readdirSync(dest).some((n) => n.startsWith('fam-a'));
        if (s !== step || !moving || !existsSync(fx.files.fork) || goneNow() !== gone) return;
        setStepHook(null);
        appendFileSync(fx.files.fork, `${line}\n`); // pi appends by path
      });
      const r = await archive(fx, dest);
      expect(r.code).toBe(0);
      const kept = r.json.find((o) => o.family === 'fam-a')!;
      expect(kept.moved).toBe(false);
      expect(kept.skipped).toMatch(/fork\.jsonl was written during the archive/);
      // Every member is back at its path, the fork with its late line; nothing of the family archived.
      expect(readFileSync(fx.files.fork).equals(Buffer.concat([before, Buffer.from(`${line}\n`)]))).toBe(true);
      fx.hashes.set(fx.files.fork, fingerprint(fx.files.fork));
      for (const f of [fx.files.a, fx.files.clone]) expect(fingerprint(f)).toBe(fx.hashes.get(f));
      expect(readdirSync(dest).some((n) => n.startsWith('fam-a'))).toBe(false);
      expect(placeProblems(fx, dest)).toEqual([]);
    },
  );

  it('a session written a second ago never moves, even with --stale-days 0', async () => {
    const { fx, dest } = setup();
    utimesSync(fx.files.lone, new Date(), new Date());
    const r = await archive(fx, dest.replace('archive', 'a0'), '--stale-days', '0');
    const lone = r.json.find((o) => o.family === 'lone');
    expect(lone === undefined || lone.moved === false).toBe(true);
    expect(existsSync(fx.files.lone)).toBe(true);
  });
});

describe('restore', () => {
  it('onto a taken name: refused before anything moves, in one line; after the name is freed, whole', async () => {
    const { fx, dest } = setup();
    expect((await archive(fx, dest)).code).toBe(0);
    const folder = join(
      dest,
      readdirSync(dest).find((n) => n.startsWith('fam-a'))!,
    );
    writeFileSync(fx.files.clone, 'someone else\n');
    const r = await cli('archive', '--root', fx.root, '--restore', folder);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toEqual([
      expect.stringMatching(/clone\.jsonl already exists; nothing was restored/),
    ]);
    expect(existsSync(fx.files.a) || existsSync(fx.files.fork)).toBe(false);
    rmSync(fx.files.clone);
    expect((await cli('archive', '--root', fx.root, '--restore', folder)).code).toBe(0);
    for (const f of [fx.files.a, fx.files.fork, fx.files.clone]) expect(fingerprint(f)).toBe(fx.hashes.get(f));
  });

  it('a forged manifest cannot send a file outside the roots (~/.bashrc) nor read outside its folder', async () => {
    const { fx, dest } = setup();
    expect((await archive(fx, dest)).code).toBe(0);
    const folder = join(
      dest,
      readdirSync(dest).find((n) => n.startsWith('lone'))!,
    );
    const path = join(folder, 'canopy-archive.json');
    const real = readFileSync(path, 'utf8');
    const forge = (edit: (m: any) => void) => {
      const m = JSON.parse(real);
      edit(m);
      writeFileSync(path, JSON.stringify(m));
    };
    const bashrc = join(homedir(), '.bashrc');
    const cases: [(m: any) => void, RegExp][] = [
      [(m) => (m.files[0].original = bashrc), /no session file path/],
      [(m) => (m.files[0].original = `${bashrc}.jsonl`), /outside every session root/],
      [(m) => ((m.files[0].original = join(base, 'x.jsonl')), (m.roots = [base])), /outside every session root/],
      [(m) => (m.files[0].original = join(fx.root, '..', 'evil.jsonl')), /no session file path|outside/],
      [(m) => (m.files[0].stored = '../../../etc/passwd'), /outside its folder/],
      [(m) => (m.version = 9), /not a manifest Canopy wrote/],
    ];
    for (const [edit, why] of cases) {
      forge(edit);
      const r = await cli('archive', '--root', fx.root, '--restore', folder);
      expect(r.code).toBe(1);
      expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(why)]);
    }
    expect(existsSync(join(base, 'x.jsonl'))).toBe(false);
    writeFileSync(path, real);
    expect((await cli('archive', '--root', fx.root, '--restore', folder)).code).toBe(0);
  });
});

describe('runs and names', () => {
  it('two runs at once: one moves, the others are refused in one line; no orphan folder', async () => {
    const { fx, dest, data } = setup();
    const families = [{ family: 'lone', sessions: [{ path: fx.files.lone, bytes: 0 }] }];
    const req = { families, staleDays: 30, archiveDir: dest, roots: [fx.root], dataDir: data };
    const runs = await Promise.allSettled([archiveFamilies(req), archiveFamilies(req), archiveFamilies(req)]);
    expect(runs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of runs.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(ArchiveError);
      expect((r.reason as ArchiveError).code).toBe('busy');
    }
    expect(readdirSync(dest)).toHaveLength(1);
    // A lock held by a live process (another canopy) is busy: exit 3, one line.
    const sleeper = spawn('sleep', ['30']);
    writeFileSync(join(data, 'archive.lock'), JSON.stringify({ pid: sleeper.pid }));
    const busy = await archive(fx, dest);
    sleeper.kill();
    expect(busy.code).toBe(4);
    expect(busy.json).toEqual([{ error: { code: 'busy', message: expect.stringMatching(/another archive.*pid/) } }]);
    // Its owner gone, the lock is taken over.
    writeFileSync(join(data, 'archive.lock'), JSON.stringify({ pid: 2 ** 22 + 7 }));
    expect((await archive(fx, dest)).code).toBe(0);
  });

  it('duplicate header ids (a plain cp) and a 300-character id archive into folders of their own', async () => {
    const { fx, dest } = setup();
    const copy = join(fx.root, '--r--', 'copy.jsonl');
    mkdirSync(join(fx.root, '--r--'));
    copyFileSync(fx.files.lone, copy);
    const long = join(fx.root, '--r--', 'long.jsonl');
    writeFileSync(long, jsonl([header('i'.repeat(300), '/p'), user('u', null, 'hi')]));
    for (const f of [copy, long]) utimesSync(f, OLD_S, OLD_S);
    const r = await archive(fx, dest);
    expect(r.code, r.err).toBe(0);
    expect(r.json.filter((o) => o.moved).length).toBe(r.json.length - 1);
    for (const f of [copy, long, fx.files.lone]) expect(existsSync(f)).toBe(false);
    for (const name of readdirSync(dest)) expect(name.length).toBeLessThan(100);
  });

  it('--to a file, or under one, or a data folder that is a file: one line, nothing moved', async () => {
    const { fx, dest } = setup();
    writeFileSync(dest, 'a file');
    for (const to of [dest, join(dest, 'below')]) {
      const r = await cli('archive', '--root', fx.root, '--stale-days', '30', '--to', to, '--yes');
      expect(r.code).toBe(1);
      expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/is not a folder/)]);
    }
    // A data folder (the journal's) that is a file: one line too.
    process.env.CANOPY_DATA_DIR = dest;
    const r = await cli('archive', '--root', fx.root, '--stale-days', '30', '--yes');
    expect(r.code).toBe(3);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/data folder .* cannot be used/)]);
    // Every command that keeps something there says it the same way (export keeps its ledger there).
    const ex = await cli('export', fx.files.lone, '--redact');
    expect(ex.code).toBe(3);
    expect(ex.err.trim().split('\n')).toEqual([
      expect.stringMatching(/^canopy export: Canopy's data folder .* cannot be used/),
    ]);
    for (const f of fx.hashes.keys()) expect(fingerprint(f)).toBe(fx.hashes.get(f));
  });

  it('a full run moves every file (the symbolic link as a link) and its manifest keeps mtimes', async () => {
    const { fx, dest } = setup();
    const r = await archive(fx, dest);
    expect(
      r.json
        .filter((o) => o.moved)
        .flatMap((o) => o.paths)
        .sort(),
    ).toEqual([...fx.hashes.keys()].sort());
    expect(placeProblems(fx, dest)).toEqual([]);
  });
});
