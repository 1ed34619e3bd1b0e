/**
 * Shared end-to-end setup: `canopy serve` (in process) on a temp root of generated pi sessions,
 * and the real Chromium driven through playwright-core. Skipped, with the reason printed, where
 * /usr/bin/chromium is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type ElementHandle, type Page } from 'playwright-core';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { startServer, type RunningServer } from '../../electron/ipc/serve-http';
import type { Result } from '../../electron/shared/errors';
import { buildCorpus, type CorpusFile } from '../fixtures/corpus/build';
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_MISSING, ensureRendererBuilt, RENDERER_DIR, REPO } from './chromium-env.mjs';

export { CHROMIUM, ensureRendererBuilt, REPO };
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`[e2e] SKIPPED: ${CHROMIUM_MISSING}.`);

export const RENDERER = RENDERER_DIR;
export const SHOTS = join(REPO, 'test-output/e2e');

export interface HarnessOptions {
  /** Watch the root and push live events (default false). */
  watch?: boolean;
  perWriter?: number;
}

export interface Harness {
  root: string;
  sessionsDir: string;
  corpus: CorpusFile[];
  services: AppServices;
  server: RunningServer;
  origin: string;
  context: BrowserContext;
  page: Page;
  /** Script errors and console errors seen on `page`. */
  pageErrors: string[];
  api<T>(channel: string, args: unknown, token?: string): Promise<{ status: number; body: Result<T> }>;
  /** Unwraps an ok result or throws with the error. */
  call<T>(channel: string, args: unknown): Promise<T>;
  shot(name: string, target?: Page): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  ensureRendererBuilt();
  mkdirSync(SHOTS, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'canopy-e2e-'));
  const sessionsDir = join(root, 'sessions');
  const corpus = await buildCorpus(sessionsDir, { perWriter: opts.perWriter ?? 12 });
  const services = createAppServices({
    roots: [sessionsDir],
    transport: 'http',
    offload: true,
    watch: opts.watch ?? false,
  });
  const server = await startServer({ handlers: services.handlers, bus: services.bus, rendererDir: RENDERER });
  const origin = `http://127.0.0.1:${server.port}`;
  const context = await chromium.launchPersistentContext(join(root, 'profile'), {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(msg.text());
  });

  async function api<T>(
    channel: string,
    args: unknown,
    token = server.token,
  ): Promise<{ status: number; body: Result<T> }> {
    const res = await fetch(`${origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-canopy-token': token },
      body: JSON.stringify(args),
    });
    return { status: res.status, body: (await res.json()) as Result<T> };
  }

  return {
    root,
    sessionsDir,
    corpus,
    services,
    server,
    origin,
    context,
    page,
    pageErrors,
    api,
    async call<T>(channel: string, args: unknown): Promise<T> {
      const r = await api<T>(channel, args);
      if (!r.body.ok) throw new Error(`${channel}: ${r.body.error.code} ${r.body.error.message}`);
      return r.body.data;
    },
    shot: async (name, target = page) => {
      await target.screenshot({ path: join(SHOTS, `${name}.png`) });
    },
    async close() {
      await context.close();
      await server.close();
      await services.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Opens a session through its sidebar row (the list is virtualized: filter by id first). */
export async function openViaRow(page: Page, sessionId: string): Promise<void> {
  const rowSel = `[data-testid="session-row"][data-session-id="${sessionId}"]`;
  await page.fill('[data-testid="session-filter"]', sessionId);
  await page.click(rowSel);
  await page.fill('[data-testid="session-filter"]', '');
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
}

/**
 * The session's row in the (virtualized) list, scrolled to if it is not drawn: the list keeps its
 * scroll when rows arrive, so a row may be out of view when a test looks for it.
 */
export async function sessionRowInView(page: Page, sessionId: string): Promise<ElementHandle> {
  const rowSel = `[data-testid="session-row"][data-session-id="${sessionId}"]`;
  await page.waitForSelector('[data-testid="session-list"]');
  await page.evaluate(async (sel) => {
    const list = document.querySelector<HTMLElement>('[data-testid="session-list"]')!;
    if (document.querySelector(sel)) return;
    for (let top = 0; top <= list.scrollHeight; top += Math.max(100, list.clientHeight / 2)) {
      list.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      if (document.querySelector(sel)) return;
    }
  }, rowSel);
  return page.waitForSelector(rowSel);
}

/** A deep link to a session (and entry). */
export function deepLink(origin: string, sessionId: string, entryId?: string): string {
  const base = `${origin}/#/session/${encodeURIComponent(sessionId)}`;
  return entryId ? `${base}?entry=${encodeURIComponent(entryId)}` : base;
}
