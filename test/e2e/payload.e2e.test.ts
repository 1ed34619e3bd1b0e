/**
 * End to end: a session with a ~3 MB screenshot and a ~2 MB tool output. entry.get's answers stay
 * small; the inspector shows sized placeholders, "Load image" draws the image, "Load more" adds
 * text. Screenshots (dark, 1280x800): test-output/e2e/payload-{image,text}.png, copied to /tmp.
 * Skipped, with the reason printed, where /usr/bin/chromium is missing.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntryDetailDto } from '../../electron/shared/dto';
import { HAVE_CHROMIUM, SHOTS, deepLink, startHarness, type Harness } from './harness';

const SID = '019c0000-0000-7000-8000-00000000fa71';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real PNG of w×h pixels: a gradient with noise (so it stays megabytes when deflated). */
function png(w: number, h: number): Buffer {
  const rows = Buffer.alloc((w * 3 + 1) * h);
  let seed = 7;
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const o = row + 1 + x * 3;
      rows[o] = (x * 255) / w;
      rows[o + 1] = (y * 255) / h;
      rows[o + 2] = seed >>> 24;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const OUTPUT = Array.from({ length: 55_000 }, (_, i) => `${String(i).padStart(6, '0')} build step "ok" \\ done ✓`).join(
  '\n',
);

if (!HAVE_CHROMIUM) console.warn('[skipped] payload e2e: no Chromium at /usr/bin/chromium (apt-get install chromium)');

describe.skipIf(!HAVE_CHROMIUM)('heavy payloads in the inspector', () => {
  let h: Harness;
  let image = '';

  beforeAll(async () => {
    h = await startHarness({ perWriter: 1 });
    image = png(1300, 820).toString('base64');
    const t = (s: number) => `2026-03-01T10:00:0${s}.000Z`;
    const lines = [
      { type: 'session', version: 3, id: SID, timestamp: t(0), cwd: '/payload' },
      {
        type: 'message',
        id: 'u1',
        parentId: null,
        timestamp: t(1),
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'Here is a screenshot' },
            { type: 'image', data: image, mimeType: 'image/png' },
          ],
          timestamp: 1,
        },
      },
      {
        type: 'message',
        id: 'a1',
        parentId: 'u1',
        timestamp: t(2),
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'npm run build' } }],
          provider: 'p',
          model: 'm',
          usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { total: 0 } },
          stopReason: 'toolUse',
          timestamp: 2,
        },
      },
      {
        type: 'message',
        id: 't1',
        parentId: 'a1',
        timestamp: t(3),
        message: {
          role: 'toolResult',
          toolCallId: 'c1',
          toolName: 'bash',
          content: [{ type: 'text', text: OUTPUT }],
          isError: false,
          timestamp: 3,
        },
      },
    ];
    const dir = join(h.sessionsDir, '--payload--');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `2026-03-01T10-00-00-000Z_${SID}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    await h.call('sessions.list', { refresh: true });
    // The token URL first: the tab keeps the token for the deep links below.
    await h.page.goto(h.server.url);
    await h.page.waitForSelector('[data-testid="session-row"]');
  }, 180_000);
  afterAll(() => h?.close());

  it("keeps entry.get's answers small", async () => {
    for (const id of ['u1', 't1']) {
      const r = await fetch(`${h.origin}/api/entry.get`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-canopy-token': h.server.token },
        body: JSON.stringify({ sessionId: SID, entryId: id }),
      });
      const text = await r.text();
      const detail = (JSON.parse(text) as { data: EntryDetailDto }).data;
      console.log(
        `[e2e] entry.get ${id}: ${text.length} bytes of JSON for a ${id === 'u1' ? image.length : OUTPUT.length}-character payload`,
      );
      expect(detail.payloads).toHaveLength(1);
      expect(text.length).toBeLessThan(80 * 1024);
    }
  });

  it('shows an image placeholder; Load image draws the image', async () => {
    const page = h.page;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(deepLink(h.origin, SID, 'u1'));
    const placeholder = await page.waitForSelector(
      '[data-testid="inspector"][data-entry-id="u1"] [data-testid="payload"][data-kind="image"]',
    );
    expect(await placeholder.textContent()).toMatch(/image\/png · \d(\.\d)? MiB/);
    await page.getByRole('button', { name: 'Load image' }).focus();
    await page.keyboard.press('Enter');
    const img = await page.waitForSelector('[data-testid="inspector"] img[data-testid="content-image"]');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="inspector"] img') as HTMLImageElement | null)?.naturalWidth === 1300,
    );
    expect(await img.getAttribute('src')).toHaveLength('data:image/png;base64,'.length + image.length);
    await page.waitForTimeout(200);
    await h.shot('payload-image');
    copyFileSync(join(SHOTS, 'payload-image.png'), '/tmp/payload.png');
  });

  it('shows a tool output placeholder; Load more adds text', async () => {
    const page = h.page;
    await page.goto(deepLink(h.origin, SID, 't1'));
    const box = await page.waitForSelector(
      '[data-testid="inspector"][data-entry-id="t1"] [data-testid="payload"][data-kind="text"]',
    );
    expect(await box.textContent()).toContain('tool output · ');
    expect(await box.textContent()).toContain('first 64 KiB');
    const before = (await box.textContent())!.length;
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.waitForFunction(
      (n) =>
        (document.querySelector('[data-testid="payload"][data-kind="text"]')?.textContent?.length ?? 0) > n + 200_000,
      before,
    );
    expect(await box.textContent()).toContain('first 320 KiB');
    expect(await box.textContent()).toContain('007000 build step');
    await page.waitForTimeout(200);
    await h.shot('payload-text');
    copyFileSync(join(SHOTS, 'payload-text.png'), '/tmp/payload-text.png');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('ran without a script error or console error', () => {
    expect(h.pageErrors).toEqual([]);
  });
});
