/**
 * A session root for archive tests: a three-session fork family, a lone session, a 6 MB session
 * (more than one copy chunk) and a relative symbolic link to a session in a subfolder, all last
 * written 40 days ago (each a different second); and the check that every file is in exactly one
 * place, byte-equal (hashes), after any cut and resume.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { header, jsonl, user } from '../../repo/helpers';

const REPO = join(__dirname, '../../..');
export const OLD_S = (Date.now() - 40 * 86_400_000) / 1000;

export interface Fixture {
  root: string;
  /** Original path → SHA-256 of its bytes (a link: of its target text). */
  hashes: Map<string, string>;
  mtimes: Map<string, number>;
  files: { a: string; fork: string; clone: string; lone: string; big: string; link: string };
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

export function fingerprint(path: string): string {
  const st = lstatSync(path);
  return st.isSymbolicLink() ? sha(readlinkSync(path)) : sha(readFileSync(path));
}

function session(path: string, id: string, extra: Record<string, unknown> = {}, size = 0): void {
  mkdirSync(dirname(path), { recursive: true });
  const lines: Record<string, unknown>[] = [header(id, '/p', extra), user(`${id}-u1`, null, `hello from ${id}`)];
  if (size > 0) lines.push(user(`${id}-u2`, `${id}-u1`, 'x'.repeat(size)));
  writeFileSync(path, jsonl(lines));
}

/** Writes the store under `<dir>/sessions`. */
export function writeFixture(dir: string): Fixture {
  const root = join(dir, 'sessions');
  const p = join(root, '--p--');
  const q = join(root, '--q--');
  const files = {
    a: join(p, 'a.jsonl'),
    fork: join(p, 'fork.jsonl'),
    clone: join(p, 'clone.jsonl'),
    lone: join(q, 'lone.jsonl'),
    big: join(q, 'big.jsonl'),
    link: join(q, 'link.jsonl'),
  };
  session(files.a, 'fam-a');
  session(files.fork, 'fam-f', { parentSession: files.a });
  session(files.clone, 'fam-c', { parentSession: files.fork });
  session(files.lone, 'lone');
  session(files.big, 'big', {}, 6 * 1024 * 1024);
  // Inside the root (the listing refuses a link that leaves it), a level below what is listed.
  const target = join(q, 'sub', 'linked.jsonl');
  session(target, 'linked');
  symlinkSync('sub/linked.jsonl', files.link);
  const hashes = new Map<string, string>();
  const mtimes = new Map<string, number>();
  Object.values(files).forEach((f, i) => {
    const t = OLD_S + i;
    if (lstatSync(f).isSymbolicLink()) lutimesSync(f, t, t);
    else utimesSync(f, t, t);
    hashes.set(f, fingerprint(f));
    mtimes.set(f, lstatSync(f).mtimeMs);
  });
  utimesSync(target, OLD_S, OLD_S);
  return { root, hashes, mtimes, files };
}

interface ArchivedCopy {
  folder: string;
  stored: string;
}

/** Each original path's copies in the archive folder (per its manifests), byte-checked. */
export function archivedCopies(archiveDir: string): { copies: Map<string, ArchivedCopy[]>; strays: string[] } {
  const copies = new Map<string, ArchivedCopy[]>();
  const strays: string[] = [];
  if (!existsSync(archiveDir)) return { copies, strays };
  for (const name of readdirSync(archiveDir)) {
    const folder = join(archiveDir, name);
    const manifestPath = join(folder, 'canopy-archive.json');
    if (!existsSync(manifestPath)) {
      strays.push(folder);
      continue;
    }
    const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      files: { original: string; stored: string; sha256: string }[];
    };
    const listed = new Set(['canopy-archive.json', ...m.files.map((f) => f.stored)]);
    for (const extra of readdirSync(folder).filter((n) => !listed.has(n))) strays.push(join(folder, extra));
    for (const f of m.files) {
      const stored = join(folder, f.stored);
      let ok = false;
      try {
        ok = fingerprint(stored) === f.sha256;
      } catch {
        ok = false;
      }
      if (!ok) strays.push(`${stored} (missing or not as archived)`);
      else copies.set(f.original, [...(copies.get(f.original) ?? []), { folder, stored }]);
    }
  }
  return { copies, strays };
}

/** Files under the root that are none of the fixture's (a `.part`, a new file at an old path…). */
export function rootStrays(fx: Fixture): string[] {
  const out: string[] = [];
  for (const d of readdirSync(fx.root))
    for (const n of readdirSync(join(fx.root, d)))
      if (n !== 'sub' && !fx.hashes.has(join(fx.root, d, n))) out.push(join(fx.root, d, n));
  return out;
}

/** Every file in exactly one place (the root or one archived copy), byte-equal; nothing else anywhere. */
export function placeProblems(fx: Fixture, archiveDir: string): string[] {
  const problems: string[] = [];
  const { copies, strays } = archivedCopies(archiveDir);
  problems.push(...strays.map((s) => `stray in the archive: ${s}`));
  problems.push(...rootStrays(fx).map((s) => `stray in the root: ${s}`));
  for (const [path, hash] of fx.hashes) {
    let inRoot = 0;
    if (existsSync(path) || isLink(path)) {
      if (fingerprint(path) === hash) inRoot = 1;
      else problems.push(`${path} changed`);
    }
    const n = inRoot + (copies.get(path)?.length ?? 0);
    if (n !== 1) problems.push(`${path} is in ${n} places`);
  }
  return problems;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Runs the built CLI in a child process; its exit code or the signal that ended it. */
export function canopyChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'bin/canopy.cjs'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, out, err }));
  });
}
