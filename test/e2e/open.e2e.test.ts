/**
 * End to end: a session file outside every root is opened by the Open button's file input and by a
 * drop on the window; its bytes are uploaded and it shows under "Opened". Skipped, with the reason
 * printed, where /usr/bin/chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

const line = (v: unknown) => JSON.stringify(v);
function sessionText(id: string, prompt: string): string {
  return (
    [
      line({ type: 'session', version: 3, id, timestamp: '2026-03-01T10:00:00.000Z', cwd: '/opened' }),
      line({
        type: 'message',
        id: 'u1',
        parentId: null,
        timestamp: '2026-03-01T10:00:01.000Z',
        message: { role: 'user', content: prompt, timestamp: 1 },
      }),
    ].join('\n') + '\n'
  );
}

if (!HAVE_CHROMIUM) console.warn('[skipped] open e2e: no Chromium at /usr/bin/chromium (apt-get install chromium)');

describe.skipIf(!HAVE_CHROMIUM)('opening a file that is not under a root', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    await h.page.goto(h.server.url);
    await h.page.waitForSelector('[data-testid="session-row"]');
  }, 180_000);
  afterAll(() => h?.close());

  it('by the file input: uploaded, listed under "Opened" and opened', async () => {
    const id = '019c0000-0000-7000-8000-0000000f11e1';
    await h.page.setInputFiles('[data-testid="open-input"]', {
      name: 'picked.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(sessionText(id, 'picked by input')),
    });
    await h.page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${id}"]`);
    const list = await h.call<SessionListDto>('sessions.list', {});
    expect(list.sessions.find((r) => r.sessionId === id)?.origin).toBe('uploaded');
    expect(await h.page.textContent('[data-testid="project-row"]')).toContain('Opened');
  });

  it('by a drop on the window', async () => {
    const id = '019c0000-0000-7000-8000-0000000f11e2';
    const text = sessionText(id, 'dropped');
    const dataTransfer = await h.page.evaluateHandle((content) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], 'dropped.jsonl', { type: 'application/json' }));
      return dt;
    }, text);
    await h.page.dispatchEvent('body', 'dragover', { dataTransfer });
    await h.page.dispatchEvent('body', 'drop', { dataTransfer });
    await h.page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${id}"]`);
    const list = await h.call<SessionListDto>('sessions.list', {});
    expect(list.sessions.find((r) => r.sessionId === id)).toMatchObject({
      origin: 'uploaded',
      fileName: 'dropped.jsonl',
    });
    expect(h.pageErrors).toEqual([]);
  });

  it('draws a GFM table in a reply as a table, and raw HTML in it as text', async () => {
    const id = '019c0000-0000-7000-8000-0000000f11e3';
    const reply = '| file | lines |\n| --- | ---: |\n| parse.ts | 350 |\n| cli.ts | 432 |\n\n<b>not bold</b>';
    const text =
      sessionText(id, 'a table please') +
      line({
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: '2026-03-01T10:00:02.000Z',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: reply }],
          provider: 'p',
          model: 'm',
          api: 'x',
          stopReason: 'stop',
          timestamp: 2,
          usage: {
            input: 1,
            output: 1,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 2,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
        },
      }) +
      '\n';
    await h.page.setInputFiles('[data-testid="open-input"]', {
      name: 'table.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    await h.page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${id}"]`);
    await h.page.click('.react-flow__node[data-id="a1"]');
    const table = await h.page.waitForSelector('.markdown table');
    expect(await table.$$eval('th', (ths) => ths.map((t) => t.textContent))).toEqual(['file', 'lines']);
    expect(await table.$$eval('tbody tr', (trs) => trs.length)).toBe(2);
    expect(await h.page.$('.markdown b')).toBeNull();
    expect(await h.page.textContent('.markdown')).toContain('<b>not bold</b>');
    await h.shot('31-gfm-table');
  });
});
