import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { resumeCommand } from '../../electron/shared/resume-command';
import type { Handlers } from '../../electron/shared/contract';
import { unpackEntryStates } from '../../electron/shared/entry-states';
import type { ForkPreviewDto, ForkRequestDto } from '../../electron/shared/dto';
import {
  assistant,
  branchedSession,
  entry,
  hashTree,
  header,
  projectDirName,
  readJsonl,
  sampleRoot,
  tempDir,
  user,
  writeSession,
} from './helpers';

const BRANCHED = '019c0000-0000-7000-8000-000000000001';
const H3 = '019c0000-0000-7000-8000-000000000002';
const FILE_NAME =
  /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.jsonl$/;

async function services() {
  const { root, files } = await sampleRoot();
  const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
  return { root, files, handlers };
}

/** Only `added` appeared under root; every file that was there is byte-identical. */
async function expectOnlyAdded(root: string, before: Map<string, string>, added: string[]) {
  const after = await hashTree(root);
  expect([...after.keys()].filter((k) => !before.has(k)).sort()).toEqual(
    added.map((p) => p.slice(root.length + 1)).sort(),
  );
  for (const [k, h] of before) expect(after.get(k)).toBe(h);
}

describe('session.context', () => {
  it('explains every entry of a branched CA session and lists what the model receives', async () => {
    const { handlers } = await services();
    const v = await handlers['session.context']({ sessionId: BRANCHED });
    expect([v.sessionId, v.profile, v.detectedProfile, v.leafId]).toEqual([BRANCHED, 'ca', 'ca', 'n1']);
    expect(Object.fromEntries(unpackEntryStates(v.entries).map((e) => [e.id, e.state]))).toEqual({
      u1: 'included',
      a1: 'included',
      u2: 'other-branch',
      a2: 'other-branch',
      u3: 'included',
      a3: 'included',
      l1: 'not-projected',
      n1: 'not-projected',
    });
    expect(v.messages.map((m) => [m.entryId, m.sentAs, m.preview])).toEqual([
      ['u1', 'user', 'first question'],
      ['a1', 'assistant', 'first answer'],
      ['u3', 'user', 'other question'],
      ['a3', 'assistant', 'other answer'],
    ]);
    // 'first question' = 14 chars → 4 tokens, and so on (chars/4, rounded up).
    expect(v.messages.map((m) => m.tokens)).toEqual([4, 3, 4, 3]);
    expect(v.tokens.total).toBe(14);
    expect(v.state.model).toEqual({ value: { provider: 'anthropic', modelId: 'claude-test' }, entryId: 'a3' });
    // Every assistant of the helpers spends 1 in + 1 out: two on the path, three in the file.
    expect([v.cost.activePath.totalTokens, v.cost.allBranches.totalTokens]).toEqual([4, 6]);

    const other = await handlers['session.context']({ sessionId: BRANCHED, leafId: 'a2' });
    expect(other.messages.map((m) => m.entryId)).toEqual(['u1', 'a1', 'u2', 'a2']);
    const none = await handlers['session.context']({ sessionId: BRANCHED, leafId: null });
    expect([none.leafId, none.messages.length, none.counts['other-branch']]).toEqual([null, 0, 8]);
  });

  it('reads H3 files with H3 rules unless asked otherwise, and refuses unknown sessions', async () => {
    const { handlers } = await services();
    const h3 = await handlers['session.context']({ sessionId: H3 });
    expect([h3.profile, h3.leafId]).toEqual(['h3', 'h2']);
    expect(unpackEntryStates(h3.entries).find((e) => e.id === 'h4')).toMatchObject({ state: 'other-branch' });
    const asCa = await handlers['session.context']({ sessionId: H3, profile: 'ca' });
    expect([asCa.profile, asCa.leafId]).toEqual(['ca', 'h4']);
    expect(unpackEntryStates(asCa.entries).find((e) => e.id === 'h4')).toMatchObject({
      state: 'not-projected',
      reason: expect.stringMatching(/leaf pointer/),
    });
    expect(await dispatch(handlers, 'session.context', { sessionId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('fork preview vs fork', () => {
  const cases: [string, string, ForkRequestDto][] = [
    ['CA fork before a user message', BRANCHED, { kind: 'fork', entryId: 'u3', position: 'before' }],
    ['CA fork at an assistant message on another branch', BRANCHED, { kind: 'fork', entryId: 'a2', position: 'at' }],
    ['CA clone of the current branch', BRANCHED, { kind: 'clone' }],
    ['CA fork before the first prompt', BRANCHED, { kind: 'fork', entryId: 'u1', position: 'before' }],
    ['H3 fork at an entry', H3, { kind: 'fork', entryId: 'h2', position: 'at' }],
    ['H3 clone of every entry', H3, { kind: 'clone' }],
  ];

  it.each(cases)(
    '%s: the preview announces the file the fork writes (its time: the write)',
    async (_name, sessionId, request) => {
      const { root, handlers } = await services();
      const before = await hashTree(root);
      const preview = await handlers['session.forkPreview']({ sessionId, request });
      await expectOnlyAdded(root, before, []);
      if (!preview.ok) throw new Error(preview.error.message);

      const result = await handlers['session.fork']({ sessionId, request });
      await expectOnlyAdded(root, before, [result.path]);
      expect(preview.fileName).toMatch(FILE_NAME);
      // The same session id; the time part is the write's (not before the preview's).
      const [writtenTime, writtenId] = basename(result.path).split('_');
      const [previewTime, previewId] = preview.fileName.split('_');
      expect(writtenId).toBe(previewId);
      expect(writtenTime! >= previewTime!).toBe(true);
      expect(preview.directory).toBe(dirname(result.path));
      expect(result.command).toBe(resumeCommand(result.path));
      const written = await readJsonl(result.path);
      expect(written.length - 1).toBe(result.entryCount);
      expect(preview.entryCount).toBe(result.entryCount);
      if (preview.leafIsNew) {
        // A re-created label ends the file: its id is drawn again, its target is the same.
        const last = written[written.length - 1]!;
        expect([last.type, last.id]).toEqual(['label', result.leafId]);
      } else {
        expect(preview.leafId).toBe(result.leafId);
      }

      // The new session is listed under its header id, linked to its parent, and reads as previewed.
      const list = await handlers['sessions.list']({});
      const row = list.sessions.find((r) => r.sessionId === result.sessionId)!;
      expect(row.path).toBe(result.path);
      expect(row.sessionId).toBe(written[0]!.id);
      expect(row.parentSessionId).toBe(sessionId);
      const context = await handlers['session.context']({ sessionId: result.sessionId, profile: preview.profile });
      expect(context.messages.length).toBe(preview.context.messageCount);
      expect(context.tokens.total).toBe(preview.context.tokens);
    },
  );

  it('a repeated preview names the same file; the fork writes its session id, then the next preview names a new one', async () => {
    const { handlers } = await services();
    const request: ForkRequestDto = { kind: 'clone' };
    const first = await handlers['session.forkPreview']({ sessionId: BRANCHED, request });
    const again = await handlers['session.forkPreview']({ sessionId: BRANCHED, request });
    if (!first.ok || !again.ok) throw new Error('refused');
    expect(again.fileName).toBe(first.fileName);
    const other = await handlers['session.forkPreview']({
      sessionId: BRANCHED,
      request: { kind: 'clone', leafId: 'a2' },
    });
    expect(other.ok && other.fileName).not.toBe(first.fileName);
    const written = await handlers['session.fork']({ sessionId: BRANCHED, request });
    const idOf = (name: string | false) => (name ? name.split('_')[1] : name);
    expect(idOf(basename(written.path))).toBe(idOf(first.fileName));
    const next = await handlers['session.forkPreview']({ sessionId: BRANCHED, request });
    expect(next.ok && next.fileName).not.toBe(first.fileName);
    const second = await handlers['session.fork']({ sessionId: BRANCHED, request });
    expect(idOf(basename(second.path))).toBe(idOf(next.ok && next.fileName));
  });

  it('explains a refusal before anything is written, and fork refuses the same way', async () => {
    const { root, handlers } = await services();
    const before = await hashTree(root);
    const refusals: [string, ForkRequestDto, ForkPreviewDto][] = [
      [
        BRANCHED,
        { kind: 'fork', entryId: 'a1', position: 'before' },
        { ok: false, error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' } },
      ],
      [
        BRANCHED,
        { kind: 'fork', entryId: 'zz', position: 'at' },
        { ok: false, error: { kind: 'invalid_fork_target', message: 'Invalid entry ID for forking' } },
      ],
      [
        BRANCHED,
        { kind: 'clone', leafId: null },
        { ok: false, error: { kind: 'nothing_to_clone', message: 'Nothing to clone yet' } },
      ],
      [
        H3,
        { kind: 'fork', entryId: 'h2', position: 'before' },
        { ok: false, error: { kind: 'invalid_fork_target', message: 'Entry h2 is not a user message' } },
      ],
    ];
    for (const [sessionId, request, expected] of refusals) {
      expect(await handlers['session.forkPreview']({ sessionId, request })).toEqual(expected);
      const forked = await dispatch(handlers, 'session.fork', { sessionId, request });
      if (expected.ok) throw new Error('unreachable');
      const code = expected.error.kind === 'nothing_to_clone' ? 'nothing_to_clone' : 'invalid_fork_target';
      expect(forked).toEqual({ ok: false, error: { code, message: expected.error.message } });
    }
    await expectOnlyAdded(root, before, []);
  });

  it('never writes next to the demo sessions', async () => {
    const empty = await tempDir('canopy-empty-');
    const demo = await tempDir('canopy-demo-');
    const demoId = '019c0000-0000-7000-8000-00000000000d';
    await writeSession(join(demo, projectDirName('/demo')), 'demo.jsonl', branchedSession(demoId, '/demo'));
    const { handlers } = createAppServices({ roots: [empty], demoDir: demo, transport: 'http', watch: false });
    await handlers['sessions.list']({});
    const before = await hashTree(demo);
    const request: ForkRequestDto = { kind: 'clone' };
    expect(await handlers['session.forkPreview']({ sessionId: demoId, request })).toMatchObject({
      ok: false,
      error: { kind: 'read_only' },
    });
    expect(await dispatch(handlers, 'session.fork', { sessionId: demoId, request })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await hashTree(demo)).toEqual(before);
  });
});

describe('session.lineage', () => {
  async function forked(handlers: Handlers, sessionId: string, request: ForkRequestDto) {
    return handlers['session.fork']({ sessionId, request });
  }

  it('links a fork to its parent and the parent to its children, with fork points', async () => {
    const { handlers } = await services();
    const before = await forked(handlers, BRANCHED, { kind: 'fork', entryId: 'u3', position: 'before' });
    const clone = await forked(handlers, BRANCHED, { kind: 'clone' });
    const h3Clone = await forked(handlers, H3, { kind: 'clone' });

    const child = await handlers['session.lineage']({ sessionId: before.sessionId });
    // u1 → a1 copied, then the label on u1 re-created with a fresh id: the fork point is a1.
    expect(child.parent).toMatchObject({ sessionId: BRANCHED, forkPointEntryId: 'a1' });
    expect([child.children, child.missingParentPath]).toEqual([[], null]);

    const parent = await handlers['session.lineage']({ sessionId: BRANCHED });
    expect(parent.parent).toBeNull();
    expect(parent.children.map((c) => [c.sessionId, c.forkPointEntryId]).sort()).toEqual(
      [
        [before.sessionId, 'a1'],
        // The clone copies u1 a1 u3 a3 n1 (label l1 re-created after n1).
        [clone.sessionId, 'n1'],
      ].sort(),
    );
    // An H3 clone copies everything; its leaf (the leaf entry's target) is the fork point.
    expect((await handlers['session.lineage']({ sessionId: h3Clone.sessionId })).parent).toMatchObject({
      sessionId: H3,
      forkPointEntryId: 'h2',
    });
  });

  it('reports a parent that is not listed by its path', async () => {
    const { root, handlers } = await services();
    const id = '019c0000-0000-7000-8000-0000000000aa';
    await writeSession(join(root, projectDirName('/home/alice/proj')), 'orphan.jsonl', [
      header(id, '/home/alice/proj', { parentSession: '/gone/parent.jsonl' }),
      user('o1', null, 'hi'),
      assistant('o2', 'o1', 'hello'),
      entry('label', 'o3', 'o2', { targetId: 'o1', label: 'x' }),
    ]);
    await handlers['sessions.list']({ refresh: true });
    expect(await handlers['session.lineage']({ sessionId: id })).toEqual({
      sessionId: id,
      parent: null,
      missingParentPath: '/gone/parent.jsonl',
      children: [],
    });
  });
});
