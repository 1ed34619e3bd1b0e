/**
 * Entry ids as pi accepts them (any non-empty string): one of 300 characters with control
 * characters works in every channel that names an entry, in a session big enough (> 4 MiB) that
 * its previews come in session.previews batches.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/ipc/handlers';
import { dispatch } from '../../electron/ipc/dispatch';
import { SessionCatalog } from '../../electron/repo/catalog';
import type { SessionListDto } from '../../electron/shared/dto';
import { header, jsonl, tempDir, user } from '../repo/helpers';
import { cli } from '../cli/run-cli';

const LONG = 'x'.repeat(290) + '\u0001\t\u001b[31m';

describe('entry ids pi accepts', () => {
  it('a 300-character id with control characters works in previews, entry, context and fork preview', async () => {
    const dir = await tempDir('canopy-ids-');
    const root = join(dir, 'root');
    await mkdir(join(root, '--p--'), { recursive: true });
    const lines: Record<string, unknown>[] = [header('s1', '/p'), user('a', null, 'first')];
    let parent = 'a';
    for (let i = 0; i < 300; i++) {
      const id = i === 150 ? LONG : `e${i}`;
      lines.push(user(id, parent, `message ${i} `.repeat(1500)));
      parent = id;
    }
    await writeFile(join(root, '--p--', 's.jsonl'), jsonl(lines));
    const catalog = new SessionCatalog({ roots: [root], now: () => Date.now() + 60_000 });
    const handlers = createHandlers({ catalog, version: 't', transport: 'http' });
    const call = async (channel: string, args: unknown) => {
      const r = await dispatch(handlers, channel, args);
      expect(r.ok, `${channel}: ${JSON.stringify(r.ok ? '' : r.error)}`).toBe(true);
      return (r as { data: any }).data;
    };
    const list = (await call('sessions.list', {})) as SessionListDto;
    const sessionId = list.sessions[0]!.sessionId;
    expect(list.sessions[0]!.sizeBytes).toBeGreaterThan(4 * 1024 * 1024);
    await call('session.open', { sessionId });
    const previews = await call('session.previews', { sessionId, entryIds: ['e1', LONG, 'e200'] });
    expect(Object.keys(previews).sort()).toEqual(['e1', 'e200', LONG].sort());
    const entry = await call('entry.get', { sessionId, entryId: LONG });
    expect(JSON.stringify(entry)).toContain('message 150');
    const ctx = await call('session.context', { sessionId, leafId: LONG });
    expect(JSON.stringify(ctx)).toContain('message 150');
    const preview = await call('session.forkPreview', {
      sessionId,
      request: { kind: 'fork', entryId: LONG, position: 'at' },
    });
    expect(JSON.stringify(preview)).not.toContain('"ok":false');
    catalog.close();
  }, 30_000);
});

describe('the CLI shows such ids escaped', () => {
  it('tree and context print control characters as \\u escapes (no terminal escape reaches stdout)', async () => {
    const dir = await tempDir();
    const file = join(dir, 's.jsonl');
    await writeFile(file, jsonl([header('s1', '/p'), user('a', null, 'one'), user(LONG, 'a', 'two\u001b[2J')]));
    for (const command of ['tree', 'context']) {
      const r = await cli(command, file);
      expect(r.code).toBe(0);
      expect(r.out).toContain('x\\u0001\\u0009\\u001b[31m');
      // eslint-disable-next-line no-control-regex
      expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    }
  });
});
