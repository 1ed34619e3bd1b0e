/**
 * A session replaced by a FIFO after listing: opening it is an error of that session, and the
 * server keeps answering (a blocking open of the FIFO used to stop the one event loop).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/ipc/handlers';
import { startServer, type RunningServer } from '../../electron/ipc/serve-http';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { SessionListDto } from '../../electron/shared/dto';
import { header, jsonl, tempDir, user } from '../repo/helpers';
import { mkfifo, stopWriters, unblockLater } from '../storage/fifo';

let server: RunningServer;
let root: string;

async function call(channel: string, args: unknown): Promise<{ ok: boolean; data?: any; error?: any }> {
  const res = await fetch(`${server.url.replace(/\/?(\?.*)?$/, '')}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-canopy-token': server.token },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(20_000),
  });
  return (await res.json()) as { ok: boolean; data?: any; error?: any };
}

beforeAll(async () => {
  const dir = await tempDir('canopy-fifo-serve-');
  root = join(dir, 'root');
  await mkdir(join(root, '--p--'), { recursive: true });
  await writeFile(join(root, '--p--', 'a.jsonl'), jsonl([header('sa', '/p'), user('a1', null, 'one')]));
  await writeFile(join(root, '--p--', 'b.jsonl'), jsonl([header('sb', '/p'), user('b1', null, 'two')]));
  const renderer = join(dir, 'renderer');
  await mkdir(renderer);
  const catalog = new SessionCatalog({ roots: [root], now: () => Date.now() + 60_000 });
  server = await startServer({
    handlers: createHandlers({ catalog, version: 't', transport: 'http' }),
    rendererDir: renderer,
  });
});

afterAll(async () => {
  stopWriters();
  await server?.close();
});

describe('serve with a FIFO swapped in after listing', () => {
  it('session.open of it is an invalid_session error at once; the other session still opens', async () => {
    const list = (await call('sessions.list', {})).data as SessionListDto;
    const ids = Object.fromEntries(list.sessions.map((s) => [s.fileName, s.sessionId]));
    const path = join(root, '--p--', 'a.jsonl');
    await rm(path);
    mkfifo(path);
    const writer = unblockLater(path, 8000);
    const [bad, good, info] = await Promise.all([
      call('session.open', { sessionId: ids['a.jsonl'] }),
      call('session.open', { sessionId: ids['b.jsonl'] }),
      call('app.info', {}),
    ]);
    expect(writer.came(), 'session.open waited for a writer').toBe(false);
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe('invalid_session');
    expect(bad.error.message).toContain('a FIFO');
    expect(good.ok).toBe(true);
    expect(info.ok).toBe(true);
  }, 30_000);
});
