/**
 * End to end, with no desktop app: pi (1.6.0, through its SDK) runs `/canopy`; the package starts
 * `canopy serve` and sends the browser (a fake that records the URL) there; Chromium opens that URL
 * and shows the session at pi's leaf, then the search panel with the query of `/canopy search`.
 */
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, ensureRendererBuilt } from '../e2e/chromium-env.mjs';
import { HAVE_CHROMIUM, SHOTS } from '../e2e/harness';
import { fakeProgram, type FakeProgram } from './fake-program';
import { startPi, type PiRun } from './pi-harness';

describe.skipIf(!HAVE_CHROMIUM)('/canopy through canopy serve, in Chromium', () => {
  let dir: string;
  let browser: FakeProgram;
  let pi: PiRun;
  let context: BrowserContext;
  let page: Page;
  let sessionId: string;
  let leaf: string;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `pi-canopy-${name}.png`) });

  beforeAll(async () => {
    ensureRendererBuilt({ quiet: true });
    mkdirSync(SHOTS, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'canopy-pi-serve-'));
    browser = await fakeProgram(dir, 'browser');
    for (const [k, v] of Object.entries({
      PI_CODING_AGENT_DIR: join(dir, 'agent'),
      CANOPY_OPEN: 'serve',
      CANOPY_BROWSER: browser.path,
      CANOPY_APP: '',
      CANOPY_CACHE_DIR: join(dir, 'cache'),
      CANOPY_DATA_DIR: join(dir, 'data'),
    }))
      vi.stubEnv(k, v);
    pi = await startPi({
      cwd: dir,
      agentDir: join(dir, 'agent'),
      persist: true,
      turns: [{ text: 'The loader reads the quokka manifest first, then the rest.' }],
    });
    await pi.prompt('where is the config loader?');
    const lines = (await readFile(pi.sessionFile()!, 'utf8')).trim().split('\n');
    sessionId = (JSON.parse(lines[0]!) as { id: string }).id;
    leaf = (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    pi?.dispose();
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it("/canopy: the browser is sent to serve's URL with the session and leaf; Chromium shows them", async () => {
    await pi.prompt('/canopy');
    const [[url]] = (await browser.calls(1)) as [[string]];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+#\/session\//);
    expect(new URL(url).hash).toBe(`#/session/${sessionId}?entry=${leaf}`);
    await page.goto(url);
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${leaf}"]`);
    expect(await page.textContent('[data-testid="inspector"]')).toContain('quokka manifest');
    await shot('session-light');
  });

  it('/canopy search <query>: the same serve, and the search panel opens with the query and its hit', async () => {
    await pi.prompt('/canopy search quokka manifest');
    const calls = await browser.calls(2);
    const url = calls[1]![0]!;
    expect(new URL(url).origin).toBe(new URL(calls[0]![0]!).origin);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(url);
    await page.waitForSelector('[data-testid="search-panel"]');
    expect(await page.inputValue('[data-testid="search-input"]')).toBe('quokka manifest');
    await page.waitForSelector('[data-testid="search-hit"]');
    expect(await page.textContent('[data-testid="search-results"]')).toContain('quokka manifest');
    // The search link leaves the address (a reload does not reopen the panel).
    expect(new URL(page.url()).hash).toBe('');
    await shot('search-dark');
  });

  it('a link arriving in an open page (as a running desktop window gets it) opens the panel too', async () => {
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="search-panel"]', { state: 'detached' });
    await page.goto(`${new URL(page.url()).origin}/#/session/${sessionId}?entry=${leaf}`);
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${leaf}"]`);
    await page.evaluate(() => (location.hash = '#/search?q=config%20loader'));
    await page.waitForSelector('[data-testid="search-panel"]');
    expect(await page.inputValue('[data-testid="search-input"]')).toBe('config loader');
    await page.waitForSelector('[data-testid="search-hit"]');
    // Here a session was open: the address shows it again, and it stays open.
    expect(new URL(page.url()).hash).toBe(`#/session/${sessionId}?entry=${leaf}`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
  });
});
