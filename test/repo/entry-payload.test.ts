/**
 * entry.get and entry.payload on a session with megabyte lines: the answer holds the cut line and
 * sized payloads, pages read the rest back exactly; previews of heavy lines come from their skim.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHandlers } from '../../electron/ipc/handlers';
import { SessionCatalog } from '../../electron/repo/catalog';
import { dispatch } from '../../electron/ipc/dispatch';
import { entry, header, projectDirName, tempDir, user, writeSession } from './helpers';
import { join } from 'node:path';

const SID = '019c0000-0000-7000-8000-0000000000aa';
const IMAGE = Buffer.alloc(3 * 1024 * 1024, 7).toString('base64');
// Escapes, quotes and multi-byte characters across page boundaries.
const OUTPUT = Array.from({ length: 40_000 }, (_, i) => `line ${i} "q" \\ é ☃ 😀\t`).join('\n');

async function heavyRoot() {
  const root = await tempDir('canopy-payload-');
  const shot = user('u2', 'u1', 'look');
  (shot.message as { content: unknown[] }).content.push({ type: 'image', data: IMAGE, mimeType: 'image/png' });
  const result = entry('message', 't1', 'u2', {
    message: {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'bash',
      content: [{ type: 'text', text: OUTPUT }],
      isError: false,
      timestamp: 1,
    },
  });
  await writeSession(join(root, projectDirName('/p')), `2026-03-01_${SID}.jsonl`, [
    header(SID, '/p'),
    user('u1', null, 'hi'),
    shot,
    result,
  ]);
  // No search index: its background build would read the lines too.
  const handlers = createHandlers({
    catalog: new SessionCatalog({ roots: [root] }),
    version: 'test',
    transport: 'http',
  });
  await handlers['sessions.list']({});
  return handlers;
}

describe('heavy payloads', () => {
  it('entry.get cuts an image line to a small answer with a sized placeholder; entry.payload returns its base64', async () => {
    const handlers = await heavyRoot();
    const e = await handlers['entry.get']({ sessionId: SID, entryId: 'u2' });
    expect(JSON.stringify(e).length).toBeLessThan(4096);
    expect(e.payloads).toEqual([
      {
        id: '/message/content/1/data',
        kind: 'image',
        mimeType: 'image/png',
        sizeBytes: (IMAGE.length * 3) / 4,
        totalBytes: IMAGE.length,
        keptBytes: 0,
        keptChars: 0,
      },
    ]);
    const content = (e.raw.message as { content: Array<Record<string, unknown>> }).content;
    expect(content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', data: '', mimeType: 'image/png' },
    ]);
    let data = '';
    for (let offset = 0, n = 0; offset < IMAGE.length; n++) {
      const page = await handlers['entry.payload']({
        sessionId: SID,
        entryId: 'u2',
        payloadId: '/message/content/1/data',
        offset,
      });
      expect(page.totalBytes).toBe(IMAGE.length);
      expect(page.text.length).toBeLessThanOrEqual(4 * 1024 * 1024);
      data += page.text;
      offset = page.next;
      expect(n).toBeLessThan(5);
    }
    expect(data).toBe(IMAGE);
  });

  it('entry.get keeps the first 64 KB of a long tool output; pages from there give the whole text back', async () => {
    const handlers = await heavyRoot();
    const e = await handlers['entry.get']({ sessionId: SID, entryId: 't1' });
    const [p] = e.payloads!;
    expect(p).toMatchObject({ id: '/message/content/0/text', kind: 'text', totalBytes: expect.any(Number) });
    expect(p!.keptBytes).toBeLessThanOrEqual(64 * 1024);
    const cut = (e.raw.message as { content: Array<{ text: string }> }).content[0]!.text;
    let text = cut.slice(0, p!.keptChars);
    expect(OUTPUT.startsWith(text)).toBe(true);
    let offset: number | undefined;
    let pages = 0;
    for (;;) {
      const page = await handlers['entry.payload']({
        sessionId: SID,
        entryId: 't1',
        payloadId: p!.id,
        ...(offset === undefined ? {} : { offset }),
      });
      text += page.text;
      pages++;
      if (page.next >= page.totalBytes) break;
      expect(page.next - page.offset).toBeLessThanOrEqual(256 * 1024);
      offset = page.next;
    }
    expect(text).toBe(OUTPUT);
    expect(pages).toBeGreaterThan(3);
  });

  it('refuses unknown payloads and offsets past the end as values; short lines have no payloads', async () => {
    const handlers = await heavyRoot();
    expect((await handlers['entry.get']({ sessionId: SID, entryId: 'u1' })).payloads).toBeUndefined();
    const unknown = await dispatch(handlers, 'entry.payload', { sessionId: SID, entryId: 'u2', payloadId: '/nope' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const past = await dispatch(handlers, 'entry.payload', {
      sessionId: SID,
      entryId: 't1',
      payloadId: '/message/content/0/text',
      offset: 1e9,
    });
    expect(past).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    const small = await dispatch(handlers, 'entry.payload', {
      sessionId: SID,
      entryId: 'u1',
      payloadId: '/message/content/0/text',
    });
    expect(small).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('previews a heavy line read on its own from its skim', async () => {
    const handlers = await heavyRoot();
    const g = await handlers['session.open']({ sessionId: SID });
    expect(g.pending).toBe(true);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const previews = await handlers['session.previews']({ sessionId: SID, entryIds: ['u2', 't1'] });
      expect(previews.u2?.preview).toContain('look');
      expect(previews.t1?.preview).toContain('line 0');
      // Neither megabyte line was parsed whole.
      expect(Math.max(...parse.mock.calls.map(([text]) => String(text).length))).toBeLessThan(64 * 1024);
      const e = await handlers['entry.get']({ sessionId: SID, entryId: 'u2' });
      expect(e.payloads).toHaveLength(1);
      expect(Math.max(...parse.mock.calls.map(([text]) => String(text).length))).toBeLessThan(64 * 1024);
    } finally {
      parse.mockRestore();
    }
  });
});
