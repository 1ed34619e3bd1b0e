/**
 * A fork of a screenshot-heavy path: the file is written a line at a time and holds every image
 * byte for byte, and the preview (which reads the plan back without image data) announces the
 * counts that the written file reads with.
 */
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../electron/app-services';
import { header, projectDirName, readJsonl, tempDir, user, writeSession, assistant } from './helpers';

const SID = '019c0000-0000-7000-8000-0000000000e1';

function withImage(e: Record<string, unknown>, data: string): Record<string, unknown> {
  const m = e.message as { content: unknown[] };
  return { ...e, message: { ...m, content: [...m.content, { type: 'image', data, mimeType: 'image/png' }] } };
}

describe('fork of a session full of images', () => {
  it('writes each image exactly and previews what the file reads as', async () => {
    const root = await tempDir();
    const img = (n: number) => Buffer.alloc(300_000 + n, n).toString('base64');
    const lines = [
      header(SID, '/work/img'),
      withImage(user('u1', null, 'look'), img(1)),
      assistant('a1', 'u1', 'I see'),
      withImage(user('u2', 'a1', 'and this'), img(2)),
      {
        type: 'custom',
        id: 'c1',
        parentId: 'u2',
        timestamp: '2026-03-01T10:10:00.000Z',
        customType: 'x',
        data: { type: 'image', data: 'kept as is' },
      },
      assistant('a2', 'c1', 'both'),
    ];
    await writeSession(`${root}/${projectDirName('/work/img')}`, `2026-03-01T10-00-00-000Z_${SID}.jsonl`, lines);
    const { handlers } = createAppServices({ roots: [root], transport: 'http', watch: false });
    await handlers['sessions.list']({});
    const request = { kind: 'clone' as const };
    const preview = await handlers['session.forkPreview']({ sessionId: SID, request });
    if (!preview.ok) throw new Error(preview.error.message);
    const result = await handlers['session.fork']({ sessionId: SID, request });
    const written = await readJsonl(result.path);
    expect(written.slice(1).map((e) => JSON.stringify(e))).toEqual(lines.slice(1).map((e) => JSON.stringify(e)));
    const context = await handlers['session.context']({ sessionId: result.sessionId, profile: preview.profile });
    expect(preview.entryCount).toBe(written.length - 1);
    expect(preview.context.messageCount).toBe(context.messages.length);
    expect(preview.context.tokens).toBe(context.tokens.total);
    expect(context.messages.length).toBeGreaterThan(3);
  });
});
