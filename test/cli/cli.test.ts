import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cli } from './run-cli';
import {
  assistant,
  branchedSession,
  hashTree,
  header,
  nextTime,
  projectDirName,
  sampleRoot,
  tempDir,
  user,
  writeSession,
} from '../repo/helpers';

let agentDir: string;
beforeEach(async () => {
  // Keep the default root away from the real ~/.pi of whoever runs the tests.
  agentDir = await tempDir('canopy-agent-');
  vi.stubEnv('PI_CODING_AGENT_DIR', agentDir);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const BRANCHED_ID = '019c0000-0000-7000-8000-000000000001';
const H3_ID = '019c0000-0000-7000-8000-000000000002';

describe('canopy list', () => {
  it('--json prints one object with sessions (names filled) and skipped files', async () => {
    const { root, files } = await sampleRoot();
    const r = await cli('list', '--root', root, '--json');
    expect(r.code).toBe(0);
    expect(r.json).toHaveLength(1);
    const { sessions, skipped } = r.json[0]!;
    expect(sessions.map((s: any) => [s.id, s.cwd, s.name])).toEqual([
      [H3_ID, '/srv/other', undefined],
      [BRANCHED_ID, '/home/alice/proj', 'Refactor plan'],
    ]);
    expect(Object.keys(sessions[1]).sort()).toEqual([
      'createdAt',
      'cwd',
      'id',
      'modifiedAt',
      'name',
      'path',
      'sizeBytes',
    ]);
    expect(sessions[1].path).toBe(files.branched);
    expect(skipped).toEqual([{ path: files.garbage, error: { code: 'invalid_session', message: expect.any(String) } }]);
  });

  it('reads the default root from PI_CODING_AGENT_DIR and adds --root dirs', async () => {
    await writeSession(join(agentDir, 'sessions', projectDirName('/a')), 'a.jsonl', [header('in-default', '/a')]);
    const extra = await tempDir();
    await writeSession(join(extra, 'p'), 'b.jsonl', [
      header('in-extra', '/b', { timestamp: '2026-01-01T00:00:00.000Z' }),
    ]);
    const r = await cli('list', '--json', '--root', extra);
    expect(r.json[0]!.sessions.map((s: any) => s.id)).toEqual(['in-default', 'in-extra']);
    const none = await cli('list', '--json', '--root', join(extra, 'missing'));
    expect(none.code).toBe(0);
    expect(none.json[0]!.sessions.map((s: any) => s.id)).toEqual(['in-default']);
  });

  it("a root above pi's sessions folder is taken as it, said once; a missing or empty root is a clear line", async () => {
    const pi = await tempDir();
    await writeSession(join(pi, 'agent', 'sessions', projectDirName('/c')), 'c.jsonl', [header('in-agent', '/c')]);
    const above = await cli('list', '--root', pi);
    expect(above.out).toContain('in-agent');
    expect(
      above.out.split(`note: ${pi} holds pi's sessions folder: browsing ${join(pi, 'agent', 'sessions')}`),
    ).toHaveLength(2);
    const missing = join(pi, 'nowhere');
    const empty = await tempDir();
    const r = await cli('list', '--json', '--root', missing, '--root', empty);
    expect(r.json[0]!.notes).toEqual([
      `${join(agentDir, 'sessions')} does not exist`,
      `${missing} does not exist`,
      `${empty} holds no pi session files (pi keeps them in <root>/--<cwd>--/*.jsonl)`,
    ]);
  });

  it('--headers-only leaves names out; the human form shows projects, sessions and skipped files', async () => {
    const { root, files } = await sampleRoot();
    const fast = await cli('list', '--root', root, '--headers-only', '--json');
    expect(fast.json[0]!.sessions.map((s: any) => s.name)).toEqual([undefined, undefined]);
    const human = await cli('list', '--root', root);
    expect(human.code).toBe(0);
    expect(human.out).toContain('/home/alice/proj');
    expect(human.out).toContain(`${BRANCHED_ID}  "Refactor plan"`);
    expect(human.out).toContain(files.h3);
    expect(human.out).toMatch(/skipped 1 file/);
    expect(human.out).toContain(`${files.garbage}: invalid_session`);
  });

  it('rejects stray arguments and unknown options (exit 2)', async () => {
    expect((await cli('list', 'extra')).code).toBe(2);
    const r = await cli('list', '--bogus');
    expect(r.code).toBe(2);
    expect(r.err).toContain('usage: canopy list');
  });
});

describe('canopy context', () => {
  it('--json gives one line per file with exactly the agreed keys; failing files get an error line (exit 1)', async () => {
    const { files } = await sampleRoot();
    const dir = await tempDir();
    const f4 = await writeSession(dir, 'f4.jsonl', [{ kind: 'header', version: 4, id: 's', createdAt: 1, cwd: '/' }]);
    const missing = join(dir, 'missing.jsonl');
    const r = await cli('context', files.branched!, missing, files.garbage!, f4, '--json');
    expect(r.code).toBe(1);
    expect(r.json).toHaveLength(4);
    const [ok, gone, garbage, format4] = r.json as [any, any, any, any];
    expect(Object.keys(ok)).toEqual([
      'file',
      'profile',
      'leafId',
      'pathIds',
      'contextEntryIds',
      'context',
      'labels',
      'sessionName',
      'issues',
    ]);
    expect(ok).toMatchObject({
      file: files.branched,
      profile: 'ca',
      leafId: 'n1',
      pathIds: ['u1', 'a1', 'u3', 'a3', 'l1', 'n1'],
      contextEntryIds: ['u1', 'a1', 'u3', 'a3', 'l1', 'n1'],
      labels: { u1: 'start' },
      sessionName: 'Refactor plan',
      issues: [],
    });
    expect(ok.context.messages.map((m: any) => [m.role, m.content[0].text])).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'other question'],
      ['assistant', 'other answer'],
    ]);
    expect(gone).toEqual({ file: missing, error: { code: 'not_found', message: expect.any(String) } });
    expect(garbage).toEqual({ file: files.garbage, error: { code: 'invalid_session', message: expect.any(String) } });
    expect(format4).toEqual({
      file: f4,
      error: { code: 'unsupported_format', message: 'format 4 is not supported yet' },
    });
  });

  it('--leaf picks another leaf, --leaf "" means before the first entry, --profile overrides detection', async () => {
    const { files } = await sampleRoot();
    const other = await cli('context', files.branched!, '--leaf', 'a2', '--json');
    expect(other.json[0]).toMatchObject({ leafId: 'a2', pathIds: ['u1', 'a1', 'u2', 'a2'] });
    const none = await cli('context', files.branched!, '--leaf', '', '--json');
    expect(none.json[0]).toMatchObject({ leafId: null, pathIds: [], contextEntryIds: [] });
    // The H3 file: H3 reads the leaf entry (target h2), CA takes the last line.
    const h3 = await cli('context', files.h3!, '--json');
    expect(h3.json[0]).toMatchObject({ profile: 'h3', leafId: 'h2', pathIds: ['h1', 'h2'] });
    const asCa = await cli('context', files.h3!, '--profile', 'ca', '--json');
    expect(asCa.json[0]).toMatchObject({ profile: 'ca', leafId: 'h4', pathIds: ['h1', 'h2', 'h3', 'h4'] });
  });

  it('prints a readable summary without --json', async () => {
    const { files } = await sampleRoot();
    const r = await cli('context', files.branched!);
    expect(r.code).toBe(0);
    expect(r.out).toContain('profile ca  leaf n1  path 6 entries  context 6 entries → 4 messages');
    expect(r.out).toContain('name: Refactor plan');
    expect(r.out).toContain('[user] other question');
  });

  it('usage errors exit 2: no file, bad profile', async () => {
    expect((await cli('context', '--json')).code).toBe(2);
    const { files } = await sampleRoot();
    const r = await cli('context', files.branched!, '--profile', 'h4');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--profile must be ca or h3');
  });
});

describe('canopy tree', () => {
  it('--json lists every entry in file order with header, leaf, labels and issues', async () => {
    const { files } = await sampleRoot();
    const r = await cli('tree', files.branched!, files.h3!, '--json');
    expect(r.code).toBe(0);
    const [b, h] = r.json as [any, any];
    expect(Object.keys(b)).toEqual([
      'file',
      'profile',
      'header',
      'leafId',
      'entries',
      'labels',
      'sessionName',
      'issues',
    ]);
    expect(b.header).toEqual(branchedSession()[0]);
    expect(b.entries).toEqual([
      { id: 'u1', parentId: null, type: 'message', line: 2, role: 'user' },
      { id: 'a1', parentId: 'u1', type: 'message', line: 3, role: 'assistant' },
      { id: 'u2', parentId: 'a1', type: 'message', line: 4, role: 'user' },
      { id: 'a2', parentId: 'u2', type: 'message', line: 5, role: 'assistant' },
      { id: 'u3', parentId: 'a1', type: 'message', line: 6, role: 'user' },
      { id: 'a3', parentId: 'u3', type: 'message', line: 7, role: 'assistant' },
      { id: 'l1', parentId: 'a3', type: 'label', line: 8, targetId: 'u1' },
      { id: 'n1', parentId: 'l1', type: 'session_info', line: 9 },
    ]);
    expect(b).toMatchObject({ profile: 'ca', leafId: 'n1', labels: { u1: 'start' }, sessionName: 'Refactor plan' });
    expect(h).toMatchObject({ profile: 'h3', leafId: 'h2' });
    expect(h.entries.at(-1)).toEqual({ id: 'h4', parentId: 'h3', type: 'leaf', line: 5, targetId: 'h2' });
  });

  it('prints an indented tree that branches at a1, marking the current path and leaf', async () => {
    const { files } = await sampleRoot();
    const r = await cli('tree', files.branched!);
    const rows = r.out.split('\n').filter((l) => /^\s*[a-z0-9]+ [a-z_]+/.test(l));
    expect(rows.map((l) => l.trimEnd())).toEqual([
      'u1 message:user (line 2)  [start] *',
      'a1 message:assistant (line 3) *',
      '  u2 message:user (line 4)',
      '  a2 message:assistant (line 5)',
      '  u3 message:user (line 6) *',
      '  a3 message:assistant (line 7) *',
      '  l1 label (line 8) *',
      '  n1 session_info (line 9) *  ← leaf',
    ]);
  });

  it('a long chain does not indent (no recursion, no runaway width)', async () => {
    const dir = await tempDir();
    const lines: Record<string, unknown>[] = [header('chain', '/c')];
    for (let i = 0; i < 5000; i++)
      lines.push(i % 2 === 0 ? user(`e${i}`, i ? `e${i - 1}` : null, 'q') : assistant(`e${i}`, `e${i - 1}`, 'a'));
    const path = await writeSession(dir, 'chain.jsonl', lines);
    const r = await cli('tree', path);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.startsWith('e')).length).toBe(5000);
  });

  it('missing file → error line and exit 1', async () => {
    const dir = await tempDir();
    const r = await cli('tree', join(dir, 'x.jsonl'), '--json');
    expect(r.code).toBe(1);
    expect(r.json).toEqual([{ file: join(dir, 'x.jsonl'), error: { code: 'not_found', message: expect.any(String) } }]);
  });
});

describe('canopy fork / clone', () => {
  it('fork --json writes a new file next to the source and reports it', async () => {
    const { files } = await sampleRoot();
    const r = await cli('fork', files.branched!, '--entry', 'u2', '--json');
    expect(r.code).toBe(0);
    const res = r.json[0]!;
    expect(Object.keys(res)).toEqual(['ok', 'path', 'header', 'entries']);
    expect(res.ok).toBe(true);
    expect(existsSync(res.path)).toBe(true);
    expect(relative(join(files.branched!, '..'), res.path)).toBe(
      `${res.header.timestamp.replace(/[:.]/g, '-')}_${res.header.id}.jsonl`,
    );
    expect(res.header).toMatchObject({
      type: 'session',
      version: 3,
      cwd: '/home/alice/proj',
      parentSession: files.branched,
    });
    expect(res.entries.slice(0, 2)).toEqual([
      { id: 'u1', parentId: null, type: 'message' },
      { id: 'a1', parentId: 'u1', type: 'message' },
    ]);
    expect(res.entries[2]).toMatchObject({ parentId: 'a1', type: 'label' });
  });

  it('fork --position at and clone --leaf', async () => {
    const { files } = await sampleRoot();
    const at = await cli('fork', files.branched!, '--entry', 'a2', '--position', 'at', '--json');
    expect(at.json[0]!.entries.map((e: any) => e.id).slice(0, 4)).toEqual(['u1', 'a1', 'u2', 'a2']);
    const clone = await cli('clone', files.branched!, '--leaf', 'a2', '--json');
    expect(clone.code).toBe(0);
    expect(clone.json[0]!.entries.map((e: any) => e.id).slice(0, 4)).toEqual(['u1', 'a1', 'u2', 'a2']);
    const h3 = await cli('clone', files.h3!, '--json');
    expect(h3.json[0]!.entries.map((e: any) => e.id)).toEqual(['h1', 'h2', 'h3', 'h4']);
  });

  it('a refused fork prints {ok:false,error:{kind,message}} and exits 2, writing nothing', async () => {
    const { root, files } = await sampleRoot();
    const before = await hashTree(root);
    const r = await cli('fork', files.branched!, '--entry', 'a1', '--json');
    expect(r.code).toBe(2);
    expect(r.json).toEqual([{ ok: false, error: { kind: 'invalid_fork_target', message: expect.any(String) } }]);
    const human = await cli('fork', files.branched!, '--entry', 'a1');
    expect(human.code).toBe(2);
    expect(human.err).toContain('refused: invalid_fork_target');
    // Clone of a session with no entries: nothing to clone.
    const empty = await writeSession(join(root, 'e'), 'header-only.jsonl', [header('empty', '/e')]);
    const nothing = await cli('clone', empty, '--json');
    expect(nothing.code).toBe(2);
    expect(nothing.json[0]).toMatchObject({ ok: false, error: { kind: 'nothing_to_clone' } });
    const after = await hashTree(root);
    after.delete(relative(root, empty));
    expect(after).toEqual(before);
  });

  it('usage errors exit 2; file errors exit 1', async () => {
    const { files } = await sampleRoot();
    expect((await cli('fork', files.branched!)).code).toBe(2); // no --entry
    expect((await cli('fork', files.branched!, '--entry', 'u2', '--position', 'after')).code).toBe(2);
    expect((await cli('fork', files.branched!, files.h3!, '--entry', 'u2')).code).toBe(2);
    expect((await cli('clone')).code).toBe(2);
    expect((await cli('clone', files.branched!, '--profile', 'x')).code).toBe(2);
    const missing = await cli('clone', '/nonexistent/dir/x.jsonl', '--json');
    expect(missing.code).toBe(1);
    expect(missing.json).toEqual([{ ok: false, error: { kind: 'not_found', message: expect.any(String) } }]);
    const garbage = await cli('fork', files.garbage!, '--entry', 'x', '--json');
    expect(garbage.code).toBe(1);
    expect(garbage.json[0]).toMatchObject({ ok: false, error: { kind: 'invalid_session' } });
  });

  it('a v1 file: the ids `tree` prints are the same on every run and `fork` accepts them', async () => {
    const dir = await tempDir();
    const v1 = (role: string, text: string) => ({
      type: 'message',
      timestamp: nextTime(),
      message: { role, content: text, timestamp: 1 },
    });
    const path = await writeSession(dir, 'v1.jsonl', [
      { type: 'session', id: 'old', timestamp: nextTime(), cwd: '/v1' },
      v1('user', 'a'),
      v1('assistant', 'b'),
      v1('user', 'c'),
    ]);
    const first = await cli('tree', path, '--json');
    const second = await cli('tree', path, '--json');
    const ids = first.json[0]!.entries.map((e: any) => e.id);
    expect(ids).toHaveLength(3);
    expect(second.json[0]!.entries.map((e: any) => e.id)).toEqual(ids);
    const fork = await cli('fork', path, '--entry', ids[2], '--json');
    expect(fork.code).toBe(0);
    expect(fork.json[0]!.entries.map((e: any) => e.id)).toEqual(ids.slice(0, 2));
  });

  it('the human form names the new file and the pi command', async () => {
    const { files } = await sampleRoot();
    const r = await cli('clone', files.branched!);
    expect(r.code).toBe(0);
    const created = /^created (.+)$/m.exec(r.out)?.[1];
    expect(created && existsSync(created)).toBe(true);
    expect(r.out).toContain(`pi --session '${created}'`);
  });
});

describe('canopy dispatch', () => {
  it('unknown command, no command, help', async () => {
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command');
    expect((await cli()).code).toBe(2);
    const help = await cli('help');
    expect(help.code).toBe(0);
    for (const c of ['list', 'context', 'tree', 'fork', 'clone']) expect(help.out).toContain(`  ${c} `);
    const sub = await cli('fork', '--help');
    expect(sub.code).toBe(0);
    expect(sub.out).toContain('canopy fork FILE --entry ID');
  });
});

describe('read-only guarantee', () => {
  it('list, tree, context, fork and clone change no existing file; only the new fork/clone files appear', async () => {
    const { root, files } = await sampleRoot();
    const dir = join(root, projectDirName('/legacy'));
    await mkdir(dir, { recursive: true });
    // Files pi's own SessionManager would rewrite on open: v1, no final newline, empty.
    const v1 = await writeSession(dir, 'v1.jsonl', [
      { type: 'session', id: 'legacy', timestamp: '2025-11-01T00:00:00.000Z', cwd: '/legacy' },
      {
        type: 'message',
        timestamp: '2025-11-01T00:00:01.000Z',
        message: { role: 'user', content: 'hi', timestamp: 1 },
      },
      {
        type: 'message',
        timestamp: '2025-11-01T00:00:02.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'yo' }], timestamp: 2 },
      },
    ]);
    const torn = await writeSession(dir, 'torn.jsonl', [header('torn', '/legacy'), user('t1', null, 'q')], false);
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const before = await hashTree(root);
    const created: string[] = [];
    const all = [files.branched!, files.h3!, files.garbage!, v1, torn, empty];

    for (const json of [[], ['--json']]) {
      expect((await cli('list', '--root', root, ...json)).code).toBe(0);
      await cli('tree', ...all, ...json);
      await cli('context', ...all, ...json);
      await cli('context', ...all, '--profile', 'h3', ...json);
    }
    for (const file of [files.branched!, files.h3!, v1, torn]) {
      for (const argv of [
        ['clone', file],
        ['clone', file, '--profile', 'h3'],
        ['fork', file, '--entry', 'u3'],
        ['fork', file, '--entry', 't1', '--position', 'at'],
      ]) {
        const r = await cli(...argv, '--json');
        const res = r.json[0]!;
        if (res.ok) created.push(relative(root, res.path));
      }
    }
    await cli('clone', empty, '--json');
    await cli('clone', files.garbage!, '--json');

    expect(created.length).toBeGreaterThanOrEqual(8);
    const after = await hashTree(root);
    expect([...after.keys()].filter((k) => !before.has(k)).sort()).toEqual([...created].sort());
    for (const [k, h] of before) expect(after.get(k), k).toBe(h);
  });
});

describe('bin/canopy.cjs', () => {
  it('runs `list --json` as a real process (building out/cli first when needed)', async () => {
    const { root } = await sampleRoot();
    const repoRoot = join(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(repoRoot, 'bin', 'canopy.cjs'), 'list', '--json', '--root', root],
      {
        cwd: repoRoot,
        env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
        timeout: 120_000,
      },
    );
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!);
    expect(parsed.sessions.map((s: any) => s.id)).toEqual([H3_ID, BRANCHED_ID]);
    expect(existsSync(join(repoRoot, 'out', 'cli', 'index.cjs'))).toBe(true);
  }, 180_000);
});
