import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { dispatch } from '../../electron/ipc/dispatch';
import { uploadName } from '../../electron/repo/opened-paths';
import { branchedSession, hashTree, jsonl, sampleRoot, tempDir, writeSession } from './helpers';

const OUTSIDE_ID = '019c0000-0000-7000-8000-0000000000a1';
const OTHER_ID = '019c0000-0000-7000-8000-0000000000a2';

let services: AppServices | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
});

async function setup(transport: 'http' | 'electron' = 'http') {
  const { root } = await sampleRoot();
  const outside = await tempDir('canopy-outside-');
  const file = await writeSession(outside, 'mine.jsonl', branchedSession(OUTSIDE_ID, '/elsewhere'));
  const other = await writeSession(outside, 'other.jsonl', branchedSession(OTHER_ID, '/elsewhere'));
  services = createAppServices({ roots: [root], transport, watch: false });
  return { root, outside, file, other, ...services };
}

describe('opening files beyond the roots', () => {
  it('an opened file is listed under "opened" and reads; its neighbours stay out of reach', async () => {
    const { catalog, handlers, file, other } = await setup();
    expect(await catalog.openPaths([file])).toEqual({ sessionIds: [OUTSIDE_ID] });
    const list = await handlers['sessions.list']({});
    expect(list.sessions.find((r) => r.sessionId === OUTSIDE_ID)?.origin).toBe('opened');
    expect(list.sessions.some((r) => r.sessionId === OTHER_ID)).toBe(false);
    expect(list.sessions.filter((r) => r.origin === undefined)).toHaveLength(2); // the root's own sessions
    expect((await handlers['session.open']({ sessionId: OUTSIDE_ID })).path).toBe(file);
    // The palette's lookup names only listed sessions; a renderer-supplied path adds nothing.
    expect(await handlers['session.find']({ idOrPath: file })).toEqual({ sessionId: OUTSIDE_ID });
    expect(await dispatch(handlers, 'session.find', { idOrPath: other })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await handlers['sessions.list']({ refresh: true })).sessions.some((r) => r.sessionId === OTHER_ID)).toBe(
      false,
    );
    expect(await dispatch(handlers, 'session.open', { sessionId: OTHER_ID })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('an opened folder lists its sessions; a fork of an opened file is written next to it and listed', async () => {
    const { catalog, handlers, outside, file } = await setup();
    await catalog.openPaths([outside]);
    const ids = (await handlers['sessions.list']({})).sessions
      .filter((r) => r.origin === 'opened')
      .map((r) => r.sessionId)
      .sort();
    expect(ids).toEqual([OUTSIDE_ID, OTHER_ID]);
    await services!.close();
    const again = await setup();
    await again.catalog.openPaths([file]);
    const forked = await again.handlers['session.fork']({ sessionId: OUTSIDE_ID, request: { kind: 'clone' } });
    expect(forked.path.startsWith(outside)).toBe(true);
    const row = (await again.handlers['sessions.list']({})).sessions.find((r) => r.sessionId === forked.sessionId);
    expect(row?.origin).toBe('opened');
  });

  it('uploaded bytes become a read-only "uploaded" session kept outside every root', async () => {
    const { root, handlers } = await setup();
    const before = await hashTree(root);
    const text = jsonl(branchedSession(OUTSIDE_ID, '/uploaded'));
    const { sessionId } = await handlers['session.upload']({ name: '../../evil/name.jsonl', text });
    expect(sessionId).toBe(OUTSIDE_ID);
    const row = (await handlers['sessions.list']({})).sessions.find((r) => r.sessionId === sessionId)!;
    expect(row.origin).toBe('uploaded');
    expect(row.path.startsWith(root)).toBe(false);
    expect(row.fileName).toBe('name.jsonl');
    expect((await handlers['session.context']({ sessionId })).messages.length).toBeGreaterThan(0);
    expect(await handlers['session.forkPreview']({ sessionId, request: { kind: 'clone' } })).toMatchObject({
      ok: false,
      error: { kind: 'read_only' },
    });
    expect(await dispatch(handlers, 'session.fork', { sessionId, request: { kind: 'clone' } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await hashTree(root)).toEqual(before);
    // Not a session: refused with the reason, nothing listed.
    expect(await dispatch(handlers, 'session.upload', { name: 'x.jsonl', text: 'not json\n' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_session' },
    });
    expect(await hashTree(root)).toEqual(before);
  });

  it('takes no path from the renderer: the dialog channel takes no arguments and serve has no dialog', async () => {
    const { handlers, file } = await setup('http');
    expect(await dispatch(handlers, 'session.openDialog', { path: file })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await dispatch(handlers, 'session.openDialog', {})).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await dispatch(handlers, 'session.upload', { name: 'a.jsonl', text: 'x', path: file })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect((await handlers['sessions.list']({})).sessions.some((r) => r.sessionId === OUTSIDE_ID)).toBe(false);
  });

  it('the native dialog (main) is the Electron way in: its choice is opened', async () => {
    const { root } = await sampleRoot();
    const outside = await tempDir('canopy-outside-');
    const file = await writeSession(outside, 'mine.jsonl', branchedSession(OUTSIDE_ID, '/elsewhere'));
    services = createAppServices({
      roots: [root],
      transport: 'electron',
      watch: false,
      openDialog: async () => [file],
    });
    expect(await services.handlers['session.openDialog']({})).toEqual({ sessionIds: [OUTSIDE_ID] });
  });

  it('removes the uploaded copies on close', async () => {
    const { handlers, catalog } = await setup();
    await handlers['session.upload']({ name: 'a.jsonl', text: jsonl(branchedSession(OUTSIDE_ID, '/u')) });
    const path = (await handlers['sessions.list']({})).sessions.find((r) => r.origin === 'uploaded')!.path;
    catalog.close();
    await expect(readdir(join(path, '..'))).rejects.toThrow();
  });

  it('upload names lose their folders and control characters and end in .jsonl', () => {
    expect(uploadName('../../x/y.jsonl')).toBe('y.jsonl');
    expect(uploadName('C:\\a\\b.txt')).toBe('b.txt.jsonl');
    expect(uploadName('..')).toBe('uploaded.jsonl');
    expect(uploadName('a\u0000b.jsonl')).toBe('ab.jsonl');
  });
});
