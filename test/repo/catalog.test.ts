import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { SessionCatalog } from '../../electron/repo/catalog';
import { parseFileEagerly } from '../../electron/repo/session-file';
import {
  assistant,
  branchedSession,
  hashTree,
  header,
  projectDirName,
  sampleRoot,
  tempDir,
  user,
  writeSession,
} from './helpers';
import { graphFromWire } from '../../electron/shared/entry-nodes';
import { sessionsOf } from './helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';
const H3 = '019c0000-0000-7000-8000-000000000002';

describe('SessionCatalog through the handlers', () => {
  it('lists projects and sessions by id, with skipped files and no paths needed to open', async () => {
    const { root } = await sampleRoot();
    const before = await hashTree(root);
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    const list = await dispatch(handlers, 'sessions.list', {});
    expect(list.ok).toBe(true);
    if (!list.ok) return;
    const data = list.data as Awaited<ReturnType<(typeof handlers)['sessions.list']>>;
    expect(data.sessions.map((s) => s.sessionId).sort()).toEqual([BRANCHED, H3]);
    expect(data.projects.map((p) => [p.cwd, p.sessionCount]).sort()).toEqual([
      ['/home/alice/proj', 1],
      ['/srv/other', 1],
    ]);
    expect(data.skipped.map((s) => s.path.endsWith('garbage.jsonl'))).toEqual([true]);

    const summaries = await handlers['sessions.summaries']({ sessionIds: [BRANCHED, 'nope'] });
    expect(Object.keys(summaries)).toEqual([BRANCHED]);
    expect(summaries[BRANCHED]).toMatchObject({
      name: 'Refactor plan',
      firstMessage: 'first question',
      messageCount: 6,
    });
    expect(await hashTree(root)).toEqual(before);
  });

  it('opens a session as a graph with the profile rules applied', async () => {
    const { root } = await sampleRoot();
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    const g = await handlers['session.open']({ sessionId: BRANCHED });
    expect(g.profile).toBe('ca');
    expect(g.leafId).toBe('n1');
    expect(g.pathIds).toEqual(['u1', 'a1', 'u3', 'a3', 'l1', 'n1']);
    expect(g.labels).toEqual({ u1: 'start' });
    expect(g.sessionName).toBe('Refactor plan');
    expect(graphFromWire(g).entries.find((e) => e.id === 'u3')).toMatchObject({
      type: 'message',
      role: 'user',
      preview: 'other question',
      line: 6,
    });

    const h3 = await handlers['session.open']({ sessionId: H3 });
    expect([h3.detectedProfile, h3.profile, h3.leafId]).toEqual(['h3', 'h3', 'h2']);
    const asCa = await handlers['session.open']({ sessionId: H3, profile: 'ca' });
    expect([asCa.detectedProfile, asCa.profile, asCa.leafId]).toEqual(['h3', 'ca', 'h4']);
    const hypothetical = await handlers['session.open']({ sessionId: BRANCHED, leafId: 'a2' });
    expect(hypothetical.pathIds).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('returns one entry with its body, label and children; unknown ids are not_found', async () => {
    const { root } = await sampleRoot();
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    const e = await handlers['entry.get']({ sessionId: BRANCHED, entryId: 'a1' });
    expect(e.children).toEqual(['u2', 'u3']);
    expect(e.line).toBe(3);
    expect((e.raw.message as { role: string }).role).toBe('assistant');
    expect((await handlers['entry.get']({ sessionId: BRANCHED, entryId: 'u1' })).label).toBe('start');
    expect(await dispatch(handlers, 'entry.get', { sessionId: BRANCHED, entryId: 'zz' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await dispatch(handlers, 'session.open', { sessionId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('gives copies of one session distinct ids', async () => {
    const { root, files } = await sampleRoot();
    const copyDir = join(root, projectDirName('/home/alice/copy'));
    await mkdir(copyDir, { recursive: true });
    await cp(files.branched!, join(copyDir, 'copy.jsonl'));
    const catalog = new SessionCatalog({ roots: [root] });
    const ids = (await catalog.list()).sessions.map((s) => s.sessionId).sort();
    expect(ids).toEqual([BRANCHED, expect.stringMatching(new RegExp(`^${BRANCHED}~[0-9a-f]{8}$`)), H3]);
  });

  it("keeps a copy's key when the roots change: a key never comes to name another file", async () => {
    const { root, files } = await sampleRoot();
    const copyDir = join(root, projectDirName('/home/alice/zcopy'));
    await mkdir(copyDir, { recursive: true });
    const copy = join(copyDir, 'copy.jsonl');
    await cp(files.branched!, copy);
    const keyOf = async (roots: string[], path: string) =>
      (await new SessionCatalog({ roots }).list()).sessions.find((r) => r.path === path)?.sessionId;
    const before = await keyOf([root], copy);
    expect(before).toMatch(new RegExp(`^${BRANCHED}~[0-9a-f]{8}$`));
    // A root listed first that holds a third copy (its path sorts before the others).
    const early = await tempDir('a-canopy-');
    const earlyCopy = join(early, projectDirName('/home/alice/proj'), 'early.jsonl');
    await mkdir(join(earlyCopy, '..'), { recursive: true });
    await cp(files.branched!, earlyCopy);
    expect(earlyCopy < files.branched! && earlyCopy < copy).toBe(true);
    const catalog = new SessionCatalog({ roots: [early, root] });
    const rows = (await catalog.list()).sessions.filter((r) => r.sessionId.startsWith(BRANCHED));
    expect(new Set(rows.map((r) => r.sessionId)).size).toBe(3);
    expect(await keyOf([early, root], copy)).toBe(before);
    // The original lost its plain key to the early copy, yet its own `~hash` key still names it.
    const original = rows.find((r) => r.path === files.branched)!;
    expect(original.sessionId).not.toBe(BRANCHED);
    expect((await sessionsOf(catalog).graph(original.sessionId)).path).toBe(files.branched);
    expect((await sessionsOf(catalog).graph(before!)).path).toBe(copy);
    const plainFirst = new SessionCatalog({ roots: [root] });
    await plainFirst.list();
    expect((await sessionsOf(plainFirst).graph(original.sessionId)).path).toBe(files.branched);
  });

  it('links forks to their parent session by parentSession path', async () => {
    const { root, files } = await sampleRoot();
    const child = await writeSession(join(root, projectDirName('/home/alice/proj')), 'child.jsonl', [
      header('019c0000-0000-7000-8000-00000000000c', '/home/alice/proj', { parentSession: files.branched }),
      user('c1', null, 'forked'),
    ]);
    const rows = (await new SessionCatalog({ roots: [root] }).list()).sessions;
    expect(rows.find((r) => r.path === child)?.parentSessionId).toBe(BRANCHED);
  });

  it('never shows a session file that resolves outside the roots (symlink escape)', async () => {
    const root = await tempDir('canopy-root-');
    const outside = await tempDir('canopy-outside-');
    const secret = await writeSession(
      outside,
      'secret.jsonl',
      branchedSession('019c0000-0000-7000-8000-0000000000ee', '/secret/cwd'),
    );
    const proj = join(root, projectDirName('/p'));
    await mkdir(proj, { recursive: true });
    await symlink(secret, join(proj, 'link.jsonl'));
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    const list = await handlers['sessions.list']({});
    expect(list.sessions).toEqual([]);
    expect(list.projects).toEqual([]);
    expect(list.skipped).toEqual([
      { path: join(proj, 'link.jsonl'), error: expect.objectContaining({ code: 'outside_roots' }) },
    ]);
    expect(JSON.stringify(list)).not.toContain('/secret/cwd');
    expect(
      await dispatch(handlers, 'session.open', { sessionId: '019c0000-0000-7000-8000-0000000000ee' }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await handlers['sessions.summaries']({ sessionIds: ['019c0000-0000-7000-8000-0000000000ee'] })).toEqual({});
  });

  it('falls back to the demo sessions when the roots hold none', async () => {
    const empty = await tempDir('canopy-empty-');
    const demo = await tempDir('canopy-demo-');
    await writeSession(
      join(demo, projectDirName('/demo')),
      'demo.jsonl',
      branchedSession('019c0000-0000-7000-8000-00000000000d', '/demo'),
    );
    await writeFile(join(empty, 'README'), 'no sessions here');
    const { handlers } = createAppServices({ roots: [empty], demoDir: demo, transport: 'http', watch: false });
    const list = await handlers['sessions.list']({});
    expect(list.sessions.map((s) => s.cwd)).toEqual(['/demo']);
    expect((await handlers['app.info']({})).demo).toBe(true);
  });

  it("app.info asked first (the renderer's first call) already says demo, and names no root that does not exist", async () => {
    const missing = join(await tempDir('canopy-gone-'), 'no-such-root');
    const demo = await tempDir('canopy-demo-');
    await writeSession(
      join(demo, projectDirName('/demo')),
      'demo.jsonl',
      branchedSession('019c0000-0000-7000-8000-00000000000d', '/demo'),
    );
    const { handlers } = createAppServices({ roots: [missing], demoDir: demo, transport: 'http', watch: false });
    expect(await handlers['app.info']({})).toMatchObject({ demo: true, roots: [demo] });
    const plain = createAppServices({ roots: [missing], transport: 'http', watch: false });
    expect((await plain.handlers['app.info']({})).roots).toEqual([]);
  });
});

describe('SessionCatalog lineage in the listing', () => {
  it('finds a moved parent by its file name when the recorded path no longer exists', async () => {
    const { root } = await sampleRoot();
    const proj = join(root, projectDirName('/home/alice/proj'));
    const parentName = '2026-03-01T10-00-00-000Z_019c0000-0000-7000-8000-000000000001.jsonl';
    await writeSession(proj, 'moved-child.jsonl', [
      header('019c0000-0000-7000-8000-0000000000c2', '/home/alice/proj', {
        parentSession: `/elsewhere/sessions/--x--/${parentName}`,
      }),
      user('c1', null, 'forked elsewhere'),
    ]);
    const rows = (await new SessionCatalog({ roots: [root] }).list()).sessions;
    expect(rows.find((r) => r.fileName === 'moved-child.jsonl')?.parentSessionId).toBe(BRANCHED);
  });
});

describe("SessionCatalog with a line that only looks like pi's", () => {
  it('opens the graph pi reads: a crash-merged line (a cut line, then the next one) is not an entry', async () => {
    const root = await tempDir('canopy-merged-');
    const id = '019c0000-0000-7000-8000-0000000000d1';
    const cut = JSON.stringify(user('m2', 'm1', 'this line was cut by a crash')).slice(0, 120);
    const next = JSON.stringify(assistant('m3', 'm1', 'written after the crash'));
    const path = await writeSession(join(root, projectDirName('/home/alice/proj')), 'merged.jsonl', [
      header(id, '/home/alice/proj'),
      user('m1', null, 'before the crash'),
      // Starts with m2's envelope and ends like a message line, but is not JSON.
      cut + next,
      user('m4', 'm1', 'after'),
    ]);
    const eager = await parseFileEagerly(path);
    expect(eager.entries.map((e) => e.id)).toEqual(['m1', 'm4']);
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    const g = graphFromWire(await handlers['session.open']({ sessionId: id }));
    expect(g.entries.map((e) => e.id)).toEqual(['m1', 'm4']);
    expect(g.entries.map((e) => e.preview)).toEqual(['before the crash', 'after']);
    expect(g.issues.some((i) => i.line === 3)).toBe(true);
    // The context view reads the re-indexed session too.
    const view = await handlers['session.context']({ sessionId: id });
    expect(view.issues.some((i) => i.line === 3)).toBe(true);

    // Asked first, the context view finds the line itself and reads what pi reads.
    const fresh = createAppServices({ roots: [root], transport: 'http', watch: false }).handlers;
    const first = await fresh['session.context']({ sessionId: id });
    expect(first.issues.some((i) => i.line === 3)).toBe(true);
    expect(first.issues.map((i) => i.kind)).toEqual(eager.issues.map((i) => i.kind));
  });
});
