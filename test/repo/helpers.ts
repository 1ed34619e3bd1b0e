/**
 * Hand-written session fixtures for the storage/repo/CLI tests: small JSONL files built from
 * plain objects, placed in a temp sessions root laid out as pi lays it out.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { SessionCatalog } from '../../electron/repo/catalog';
import { SessionService } from '../../electron/repo/session-service';
import { tempDir } from '../storage/tmp';

export { tempDir };

type Rec = Record<string, unknown>;

let clock = Date.parse('2026-03-01T10:00:00.000Z');
/** Increasing ISO timestamps (one second apart) so children sort in creation order. */
export function nextTime(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export function header(id: string, cwd: string, extra: Rec = {}): Rec {
  return { type: 'session', version: 3, id, timestamp: '2026-03-01T10:00:00.000Z', cwd, ...extra };
}

export function user(id: string, parentId: string | null, text: string): Rec {
  const timestamp = nextTime();
  return {
    type: 'message',
    id,
    parentId,
    timestamp,
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(timestamp) },
  };
}

export function assistant(id: string, parentId: string | null, text: string): Rec {
  const timestamp = nextTime();
  return {
    type: 'message',
    id,
    parentId,
    timestamp,
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-test',
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: 'stop',
      timestamp: Date.parse(timestamp),
    },
  };
}

export function entry(type: string, id: string, parentId: string | null, extra: Rec = {}): Rec {
  return { type, id, parentId, timestamp: nextTime(), ...extra };
}

/** JSONL text: objects are stringified, strings are written as they are (for damaged lines). */
export function jsonl(lines: (Rec | string)[], finalNewline = true): string {
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  return finalNewline && lines.length > 0 ? `${body}\n` : body;
}

export async function writeSession(
  dir: string,
  name: string,
  lines: (Rec | string)[],
  finalNewline = true,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await writeFile(path, jsonl(lines, finalNewline));
  return path;
}

/** pi's per-project directory name (pi-session-format.md §1.2), written out independently of the core. */
export function projectDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/**
 * A branched CA session:
 *   u1 → a1 → u2 → a2            (first branch)
 *             ↘ u3 → a3 → label(on u1) → info(name)   (second branch, the last lines: CA's leaf)
 */
export function branchedSession(id = '019c0000-0000-7000-8000-000000000001', cwd = '/home/alice/proj'): Rec[] {
  return [
    header(id, cwd),
    user('u1', null, 'first question'),
    assistant('a1', 'u1', 'first answer'),
    user('u2', 'a1', 'second question'),
    assistant('a2', 'u2', 'second answer'),
    user('u3', 'a1', 'other question'),
    assistant('a3', 'u3', 'other answer'),
    entry('label', 'l1', 'a3', { targetId: 'u1', label: 'start' }),
    entry('session_info', 'n1', 'l1', { name: 'Refactor plan' }),
  ];
}

/** A sessions root with a few sessions (valid, branched, H3-marked) and some bad files. */
export async function sampleRoot(): Promise<{ root: string; files: Record<string, string> }> {
  const root = await tempDir('canopy-root-');
  const proj = join(root, projectDirName('/home/alice/proj'));
  const other = join(root, projectDirName('/srv/other'));
  const files: Record<string, string> = {};
  files.branched = await writeSession(
    proj,
    '2026-03-01T10-00-00-000Z_019c0000-0000-7000-8000-000000000001.jsonl',
    branchedSession(),
  );
  files.h3 = await writeSession(other, '2026-03-02T10-00-00-000Z_019c0000-0000-7000-8000-000000000002.jsonl', [
    header('019c0000-0000-7000-8000-000000000002', '/srv/other', { timestamp: '2026-03-02T10:00:00.000Z' }),
    user('h1', null, 'hello'),
    assistant('h2', 'h1', 'hi'),
    user('h3', 'h2', 'again'),
    entry('leaf', 'h4', 'h3', { targetId: 'h2' }),
  ]);
  files.garbage = await writeSession(proj, 'garbage.jsonl', ['this is not json', '{"type":"message"}']);
  return { root, files };
}

/** sha256 of every file under `dir` (relative path → hash), for "nothing changed" checks. */
export async function hashTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else
        out.set(
          relative(dir, p),
          createHash('sha256')
            .update(await readFile(p))
            .digest('hex'),
        );
    }
  }
  return out;
}

/** Lines of a JSONL file as objects (for checking what a fork wrote). */
export async function readJsonl(path: string): Promise<Rec[]> {
  const text = await readFile(path, 'utf8');
  expectTrailingNewline(text);
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Rec);
}

function expectTrailingNewline(text: string): void {
  if (!text.endsWith('\n')) throw new Error('file does not end with a newline');
}

const services = new WeakMap<SessionCatalog, SessionService>();
/** The session service over `catalog` (one per catalog, as the app builds it). */
export function sessionsOf(catalog: SessionCatalog): SessionService {
  let s = services.get(catalog);
  if (!s) services.set(catalog, (s = new SessionService(catalog)));
  return s;
}
