import { existsSync, readFileSync } from 'node:fs';
import { appendFile, chmod, mkdir, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupByProject, listSessions, summarizeSession } from '../../electron/repo/sessions';
import { CanopyError } from '../../electron/shared/errors';
import {
  assistant,
  branchedSession,
  entry,
  header,
  jsonl,
  projectDirName,
  sampleRoot,
  tempDir,
  user,
  writeSession,
} from './helpers';

const isRoot = process.getuid?.() === 0;
if (isRoot)
  console.info(
    'sessions: running as root, so the unreadable-file test covers only ELOOP (chmod 000 does not block root)',
  );

/** Bytes this process has read through read(2) so far (Linux). */
function bytesRead(): number | null {
  if (!existsSync('/proc/self/io')) return null;
  const m = /rchar:\s*(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : null;
}

describe('listSessions', () => {
  it('lists valid sessions by header (cwd from the header, never from the dir name), newest first', async () => {
    const { root, files } = await sampleRoot();
    // A directory name that decodes to something else than the header cwd.
    const misleading = await writeSession(join(root, '--tmp-my-project--'), 'x.jsonl', [
      header('s-misleading', '/tmp/my/project', {
        timestamp: '2026-02-01T00:00:00.000Z',
        parentSession: '/p/parent.jsonl',
      }),
    ]);
    const { sessions, skipped } = await listSessions([root]);
    expect(sessions.map((s) => [s.id, s.cwd, s.path])).toEqual([
      ['019c0000-0000-7000-8000-000000000002', '/srv/other', files.h3],
      ['019c0000-0000-7000-8000-000000000001', '/home/alice/proj', files.branched],
      ['s-misleading', '/tmp/my/project', misleading],
    ]);
    const first = sessions[0]!;
    const s = await stat(files.h3!);
    expect(first).toEqual({
      id: '019c0000-0000-7000-8000-000000000002',
      path: files.h3,
      cwd: '/srv/other',
      createdAt: '2026-03-02T10:00:00.000Z',
      modifiedAt: new Date(s.mtimeMs).toISOString(),
      sizeBytes: s.size,
    });
    expect(sessions[2]!.parentSessionPath).toBe('/p/parent.jsonl');
    expect(skipped).toEqual([{ path: files.garbage, error: { code: 'invalid_session', message: expect.any(String) } }]);
  });

  it('skips invalid, format-4, empty, blank-first-line and truncated-header files with a reason', async () => {
    const root = await tempDir();
    const dir = join(root, projectDirName('/w'));
    const bad: Record<string, [string, string]> = {
      'not-json.jsonl': ['{"type":"session",', 'invalid_session'],
      'not-session.jsonl': [jsonl([{ type: 'message', id: 'x' }]), 'invalid_session'],
      'array.jsonl': ['[1,2]\n', 'invalid_session'],
      'no-id.jsonl': [jsonl([{ type: 'session', version: 3, cwd: '/w' }]), 'invalid_session'],
      'format4.jsonl': [
        jsonl([{ kind: 'header', version: 4, id: 's4', createdAt: 1767258307123, cwd: '/w' }]),
        'unsupported_format',
      ],
      'format4-v.jsonl': [
        jsonl([{ v: 4, kind: 'header', id: 's4', storageVersion: 1, createdAt: 1, cwd: '/w' }]),
        'unsupported_format',
      ],
      'empty.jsonl': ['', 'invalid_session'],
      'blank-first.jsonl': [`\n${jsonl([header('s-blank', '/w')])}`, 'invalid_session'],
    };
    await mkdir(dir, { recursive: true });
    for (const [name, [content]] of Object.entries(bad)) await writeFile(join(dir, name), content);
    await writeSession(dir, 'good.jsonl', [header('s-good', '/w')], false); // header only, no final newline
    const { sessions, skipped } = await listSessions([root]);
    expect(sessions.map((s) => s.id)).toEqual(['s-good']);
    const got = Object.fromEntries(skipped.map((k) => [k.path.slice(dir.length + 1), k.error.code]));
    expect(got).toEqual(Object.fromEntries(Object.entries(bad).map(([n, [, code]]) => [n, code])));
    for (const k of skipped) expect(k.error.message.length).toBeGreaterThan(0);
    const f4 = skipped.find((k) => k.path.endsWith('format4.jsonl'))!;
    expect(f4.error.message).toBe('format 4 is not supported yet');
  });

  it('lists files with an odd but lenient header like pi\'s CA listing (missing cwd → "")', async () => {
    const root = await tempDir();
    await writeSession(join(root, 'p'), 'v1.jsonl', [
      { type: 'session', id: 'old-v1', timestamp: '2025-11-01T00:00:00.000Z', branchedFrom: '/old/parent.jsonl' },
    ]);
    await writeSession(join(root, 'p'), 'nocwd.jsonl', [
      { type: 'session', version: 3, id: 'no-cwd', timestamp: 'not a date' },
    ]);
    const { sessions, skipped } = await listSessions([root]);
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.cwd, s.parentSessionPath])).toEqual([
      ['old-v1', '', '/old/parent.jsonl'],
      ['no-cwd', '', undefined],
    ]);
  });

  it('reports unreadable files in skipped (symlink loop; EACCES when not root) and keeps listing', async () => {
    const root = await tempDir();
    const dir = join(root, 'p');
    await writeSession(dir, 'ok.jsonl', [header('s-ok', '/p')]);
    await symlink(join(dir, 'loop.jsonl'), join(dir, 'loop.jsonl'));
    if (!isRoot) {
      await writeSession(dir, 'locked.jsonl', [header('s-locked', '/p')]);
      await chmod(join(dir, 'locked.jsonl'), 0o000);
    }
    const { sessions, skipped } = await listSessions([root]);
    expect(sessions.map((s) => s.id)).toEqual(['s-ok']);
    const codes = Object.fromEntries(skipped.map((k) => [k.path.slice(dir.length + 1), k.error.code]));
    expect(codes).toEqual(isRoot ? { 'loop.jsonl': 'io' } : { 'loop.jsonl': 'io', 'locked.jsonl': 'io' });
  });

  it('follows symlinked project directories; missing roots are fine', async () => {
    const root = await tempDir();
    // The link's target is inside the root (one level too deep to be listed itself): one pointing
    // outside every root is outside_roots (list-confine.test.ts).
    const elsewhere = join(root, 'store', 'deep');
    const path = await writeSession(elsewhere, 's.jsonl', [header('s-linked', '/linked')]);
    await symlink(elsewhere, join(root, '--linked--'));
    const { sessions, skipped } = await listSessions([join(root, 'absent'), root]);
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.path])).toEqual([['s-linked', join(root, '--linked--', 's.jsonl')]]);
    expect(path).not.toBe(sessions[0]!.path);
  });

  it('reads only the header line: a huge garbage body is never read', async () => {
    const root = await tempDir();
    const dir = join(root, 'p');
    const path = await writeSession(dir, 'huge.jsonl', [header('s-huge', '/huge')]);
    // A 256 MiB sparse body of NUL bytes with no newline: reading it would take visible time and bytes.
    await truncate(path, 256 * 1024 * 1024);
    await writeSession(dir, 'garbage-body.jsonl', [header('s-garbage', '/g'), 'not json', '\u0000\u0001', '{"type":']);
    const before = bytesRead();
    const { sessions, skipped } = await listSessions([root]);
    const after = bytesRead();
    expect(skipped).toEqual([]);
    expect(sessions.map((s) => [s.id, s.sizeBytes > 1e8])).toEqual(
      [
        ['s-garbage', false],
        ['s-huge', true],
      ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    );
    if (before !== null && after !== null) expect(after - before).toBeLessThan(1024 * 1024);
  });

  it('re-reads a header only when size or mtime changed', async () => {
    const root = await tempDir();
    const path = await writeSession(join(root, 'p'), 's.jsonl', [header('before', '/p')]);
    expect((await listSessions([root])).sessions.map((s) => s.id)).toEqual(['before']);
    await writeFile(path, jsonl([header('after!', '/p')]));
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    expect((await listSessions([root])).sessions.map((s) => s.id)).toEqual(['after!']);
  });

  it('returns copies: callers may annotate rows without touching the cache', async () => {
    const { root } = await sampleRoot();
    const first = await listSessions([root]);
    first.sessions[0]!.name = 'scribbled';
    const second = await listSessions([root]);
    expect(second.sessions[0]!.name).toBeUndefined();
  });

  it('groups sessions by header cwd', async () => {
    const { root } = await sampleRoot();
    const { sessions } = await listSessions([root]);
    expect(groupByProject(sessions).map((p) => [p.cwd, p.sessions.length])).toEqual([
      ['/srv/other', 1],
      ['/home/alice/proj', 1],
    ]);
  });
});

describe('summarizeSession', () => {
  it('streams the file once for name, first user message, counts and last activity', async () => {
    const root = await tempDir();
    const lines = branchedSession();
    const path = await writeSession(root, 's.jsonl', [...lines.slice(0, 3), '   ', 'garbage line', ...lines.slice(3)]);
    const a3 = lines.find((l) => l.id === 'a3')!;
    expect(await summarizeSession(path)).toEqual({
      name: 'Refactor plan',
      firstMessage: 'first question',
      entryCount: 8,
      messageCount: 6,
      lastActivity: new Date((a3.message as { timestamp: number }).timestamp).toISOString(),
      issueCount: 1,
    });
  });

  it('follows the last session_info (a clear means no name) and falls back to the header time', async () => {
    const root = await tempDir();
    const path = await writeSession(root, 's.jsonl', [
      header('s', '/p', { timestamp: '2026-01-02T03:04:05.006Z' }),
      entry('session_info', 'n1', null, { name: '  First  ' }),
      entry('session_info', 'n2', 'n1', { name: '   ' }),
      entry('custom', 'c1', 'n2', { customType: 'x' }),
    ]);
    expect(await summarizeSession(path)).toEqual({
      name: null,
      firstMessage: null,
      entryCount: 3,
      messageCount: 0,
      lastActivity: '2026-01-02T03:04:05.006Z',
      issueCount: 0,
    });
  });

  it('joins text blocks, takes string content, and cuts long previews', async () => {
    const root = await tempDir();
    const long = 'x'.repeat(2000);
    const path = await writeSession(root, 's.jsonl', [
      header('s', '/p'),
      assistant('a0', null, 'assistant first'),
      {
        type: 'message',
        id: 'u1',
        parentId: 'a0',
        timestamp: '2026-03-01T11:00:00.000Z',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'image', data: '', mimeType: 'image/png' },
            { type: 'text', text: long },
          ],
        },
      },
    ]);
    const s = await summarizeSession(path);
    expect(s.firstMessage).toBe(`a ${long}`.slice(0, 500) + '…');
    expect(s.lastActivity).toBe('2026-03-01T11:00:00.000Z');
  });

  it('is cached by size and mtime, and updated after an append', async () => {
    const root = await tempDir();
    const path = await writeSession(root, 's.jsonl', [header('s', '/p'), user('u1', null, 'q')]);
    expect((await summarizeSession(path)).messageCount).toBe(1);
    await appendFile(path, `${JSON.stringify(assistant('a1', 'u1', 'r'))}\n`);
    expect((await summarizeSession(path)).messageCount).toBe(2);
  });

  it('throws typed errors for non-sessions, format 4 and missing files', async () => {
    const root = await tempDir();
    const notSession = await writeSession(root, 'a.jsonl', [{ type: 'message', id: 'x' }]);
    const f4 = await writeSession(root, 'b.jsonl', [{ kind: 'header', version: 4, id: 's', createdAt: 1, cwd: '/' }]);
    for (const [path, code] of [
      [notSession, 'invalid_session'],
      [f4, 'unsupported_format'],
      [join(root, 'none.jsonl'), 'not_found'],
    ] as const) {
      const err = await summarizeSession(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CanopyError);
      expect((err as CanopyError).code).toBe(code);
    }
  });
});

describe('summarizeSession: a fork', () => {
  it("names the fork's own first message: the first user message not older than its header", async () => {
    const root = await tempDir();
    const path = await writeSession(root, 'fork.jsonl', [
      header('f', '/p', { timestamp: '2026-03-01T12:00:00.000Z', parentSession: '/p/parent.jsonl' }),
      { ...user('u1', null, 'copied question'), timestamp: '2026-03-01T10:00:00.000Z' },
      { ...user('u1b', 'u1', 'copied follow-up'), timestamp: '2026-03-01T10:30:00.000Z' },
      { ...user('u2', 'u1b', 'my own question'), timestamp: '2026-03-01T12:00:05.000Z' },
      { ...user('u3', 'u2', 'a later question'), timestamp: '2026-03-01T12:10:00.000Z' },
    ]);
    const summary = await summarizeSession(path);
    expect(summary.firstMessage).toBe('copied question');
    expect(summary.ownFirstMessage).toBe('my own question');
    // Where it branched: the last message it copied from its parent.
    expect(summary.branchedAfter).toBe('copied follow-up');
    const plain = await writeSession(root, 'plain.jsonl', [
      header('p', '/p', { timestamp: '2026-03-01T12:00:00.000Z' }),
      { ...user('u1', null, 'a question'), timestamp: '2026-03-01T12:00:05.000Z' },
    ]);
    expect((await summarizeSession(plain)).branchedAfter).toBeUndefined();
  });
});
