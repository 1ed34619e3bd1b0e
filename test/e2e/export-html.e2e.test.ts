/**
 * End to end: an HTML export opened in the real Chromium runs no script and makes no request,
 * however hostile the session's text (an <img onerror>, javascript: links, SVG with script, a
 * meta refresh, stylesheet links, a hostile tool name and custom type, an SVG image block), and it
 * is screenshotted light and dark. Skipped, with the reason printed, where Chromium is missing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareExport } from '../../electron/export';
import { loadPi } from '../oracle/pi-modules';
import { CHROMIUM, HAVE_CHROMIUM, SHOTS } from './harness';

const HOSTILE = [
  `<img src=x onerror="window.__pwned=1;fetch('http://127.0.0.1:9/img')">`,
  `[click me](javascript:window.__pwned=2) <a href="javascript:window.__pwned=2">link</a>`,
  `<svg onload="window.__pwned=3"><script>window.__pwned=4</script><image href="http://127.0.0.1:9/svg"/></svg>`,
  `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/refresh">`,
  `<link rel=stylesheet href="http://127.0.0.1:9/css"><style>@import url(http://127.0.0.1:9/imp);</style>`,
  `</pre></details></article><script>window.__pwned=5</script><iframe src="http://127.0.0.1:9/f"></iframe>`,
  `"><script src="http://127.0.0.1:9/s.js"></script>`,
];
const SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=6"><script>window.__pwned=7</script></svg>`,
).toString('base64');
// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function hostileSession(dir: string): Promise<string> {
  const pi = await loadPi();
  const sm = pi.ca.SessionManager.create('/work/<script>', dir);
  const usage = {
    input: 1,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  let t = Date.parse('2026-03-01T10:00:00.000Z');
  sm.appendSessionInfo(`<img src=x onerror="window.__pwned=8">`);
  for (const text of HOSTILE) {
    sm.appendMessage({ role: 'user', content: [{ type: 'text', text }], timestamp: (t += 1000) });
    sm.appendMessage({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: text },
        { type: 'text', text },
        {
          type: 'toolCall',
          id: `c${t}`,
          name: `edit"><script>window.__pwned=9</script>`,
          arguments: { path: text, oldText: text, newText: 'safe' },
        },
      ],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: `<b onmouseover=alert(1)>m</b>`,
      usage,
      stopReason: 'toolUse',
      timestamp: (t += 1000),
    });
    sm.appendMessage({
      role: 'toolResult',
      toolCallId: `c${t - 1000}`,
      toolName: 'edit',
      isError: false,
      timestamp: (t += 1000),
      content: [
        { type: 'text', text },
        { type: 'image', mimeType: 'image/svg+xml', data: SVG },
        { type: 'image', mimeType: 'image/png', data: PNG },
      ],
      details: { diff: `-${text}\n+safe` },
    });
  }
  sm.appendCustomEntry(`<script>window.__pwned=10</script>`, { html: HOSTILE[0] });
  sm.appendMessage({
    role: 'bashExecution',
    command: HOSTILE[5]!,
    output: HOSTILE[2]!,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: (t += 1000),
  });
  return sm.getSessionFile()!;
}

if (!HAVE_CHROMIUM) console.warn('[skipped] HTML export e2e: no Chromium at /usr/bin/chromium');

describe.skipIf(!HAVE_CHROMIUM)('an HTML export in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'canopy-export-e2e-'));
    const session = await hostileSession(join(dir, 'sessions'));
    const built = await prepareExport(session, { format: 'html', redact: false, all: true });
    file = join(dir, 'export.html');
    writeFileSync(file, built.pieces.join(''));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['light', 'dark'] as const)('runs no script and requests nothing (%s)', async (colorScheme) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url() !== pathToFileURL(file).href && !r.url().startsWith('data:')) requests.push(r.url());
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForLoadState('load');
    // Open every fold so hidden content renders too, then hover everything.
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => d.setAttribute('open', '')));
    await page.mouse.move(400, 300);
    await page.waitForTimeout(300);
    const facts = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      scripts: document.scripts.length,
      handlers: [...document.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => a.name.startsWith('on')),
      ).length,
      links: document.querySelectorAll('a, link, iframe, svg, meta[http-equiv=refresh]').length,
      images: [...document.images].map((i) => i.src.slice(0, 22)),
      hostileText: document.body.innerText.includes('<img src=x onerror='),
    }));
    expect(facts).toEqual({
      pwned: null,
      scripts: 0,
      handlers: 0,
      links: 0,
      images: facts.images.map(() => 'data:image/png;base64,'),
      hostileText: true,
    });
    expect(facts.images.length).toBe(HOSTILE.length);
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `export-html-${colorScheme}.png`) });
    await page.close();
  });
});
