/**
 * End to end: pi (1.6.0, through its SDK, with the package and a UI) writes a session; Canopy
 * (`canopy serve` in Chromium) forks it, offers the fork to that pi from the fork result, and pi
 * asks its user: no keeps pi where it is, yes calls pi's switchSession with the fork.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { deepLink, HAVE_CHROMIUM, startHarness, type Harness } from '../e2e/harness';
import { recordingActions, startPi, type PiRun } from './pi-harness';

describe.skipIf(!HAVE_CHROMIUM)('"switch the running pi to it", in Chromium', () => {
  let h: Harness;
  let page: Page;
  let pi: PiRun;
  let dir: string;
  let answer = false;
  const asked: string[] = [];
  const switched: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ perWriter: 1 });
    page = h.page;
    dir = await mkdtemp(join(tmpdir(), 'canopy-pi-e2e-'));
    // pi writes into the folder Canopy serves (PI_CODING_AGENT_DIR/sessions).
    vi.stubEnv('PI_CODING_AGENT_DIR', h.root);
    vi.stubEnv('CANOPY_PI_DIR', join(dir, 'run'));
    pi = await startPi({
      cwd: dir,
      agentDir: h.root,
      persist: true,
      turns: [{ text: 'The loader reads the quokka manifest first.' }],
      ui: {
        confirm: async (_title: string, message: string) => {
          asked.push(message);
          return answer;
        },
      },
      actions: recordingActions(switched),
    });
    await pi.prompt('where is the config loader?');
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
  }, 300_000);

  afterAll(async () => {
    pi?.dispose();
    await h?.close();
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  async function forkPiSession(): Promise<{ forkPath: string }> {
    const file = pi.sessionFile()!;
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const sessionId = (JSON.parse(lines[0]!) as { id: string }).id;
    const leaf = (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
    await h.call<SessionListDto>('sessions.list', { refresh: true });
    await page.goto(deepLink(h.origin, sessionId, leaf));
    await page.click('[data-testid="tab-entry"]');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${leaf}"] [data-testid="fork-panel"]`);
    await page.click('[data-testid="fork-panel"] [data-fork-mode="at"]');
    await page.waitForSelector(
      '[data-testid="fork-panel"][data-mode="at"] [data-testid="fork-preview"][data-status="ok"]',
    );
    const before = (await (await page.$('[data-testid="fork-result"]'))?.getAttribute('data-session-id')) ?? null;
    await page.click('[data-testid="fork-button"]');
    // The new fork's result (an earlier one may still be shown until it arrives).
    const result = await page.waitForSelector(
      before ? `[data-testid="fork-result"]:not([data-session-id="${before}"])` : '[data-testid="fork-result"]',
    );
    const forkId = (await result.getAttribute('data-session-id'))!;
    const listed = await h.call<SessionListDto>('sessions.list', {});
    return { forkPath: listed.sessions.find((r) => r.sessionId === forkId)!.path };
  }

  it('the fork result offers the running pi; pi asks, and "no" leaves pi in its session', async () => {
    const { forkPath } = await forkPiSession();
    await page.waitForSelector('[data-testid="fork-handback"]');
    answer = false;
    await page.focus('[data-testid="fork-handback"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="fork-handback-status"]:has-text("confirm in pi")');
    await vi.waitFor(() => expect(asked).toHaveLength(1), { timeout: 10_000 });
    expect(asked[0]).toContain(forkPath);
    await h.shot('pi-handback-asked');
    expect(switched).toEqual([]);
  });

  it('"yes" in pi: pi switches to the fork Canopy wrote', async () => {
    const { forkPath } = await forkPiSession();
    answer = true;
    await page.click('[data-testid="fork-handback"]');
    await vi.waitFor(() => expect(switched).toEqual([forkPath]), { timeout: 10_000 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await h.shot('pi-handback-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
