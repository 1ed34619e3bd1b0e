/**
 * End to end, keyboard only: a session pi ≤ 1.5.x left with tool calls Esc stopped and a line pi
 * ≤ 0.84.3 glued; the palette's Doctor shows both marks in pi's words, writes the repaired copy,
 * and the copy opens. Screenshots light and dark in test-output/e2e/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { assistant, call, linesOf, piSession, result, text, user, writeLines } from '../doctor/pi-sessions';
import { projectDirName } from '../repo/helpers';
import { deepLink, HAVE_CHROMIUM, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('doctor dialog (chromium)', () => {
  let h: Harness;
  let page: Page;
  let damagedId: string;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    page = h.page;
    const file = await piSession(join(h.root, 'pi-wrote'), (sm) => {
      sm.appendMessage(user('look around the repo'));
      sm.appendMessage(assistant([text('three reads'), call('c1', 'read'), call('c2', 'ls'), call('c3', 'grep')]));
      sm.appendMessage(result('c1', 'read', 'Operation aborted', true));
      sm.appendMessage(user('never mind, summarise the README'));
      sm.appendMessage(assistant([text('The README explains the build.')]));
      sm.appendMessage(user('thanks'));
      sm.appendMessage(assistant([text('You are welcome.')]));
    });
    const lines = linesOf(file);
    const damaged = [...lines.slice(0, 5), lines[5]! + lines[6]!, ...lines.slice(7)];
    writeLines(
      join(h.sessionsDir, projectDirName('/home/alice/proj'), '2026-11-01T09-00-00-000Z_old-pi.jsonl'),
      damaged,
    );
    const list = await h.call<SessionListDto>('sessions.list', { refresh: true });
    damagedId = list.sessions.find((s) => s.fileName.endsWith('_old-pi.jsonl'))!.sessionId;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the marks in pi’s words, writes the repaired copy, and opens it', async () => {
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.goto(deepLink(h.origin, damagedId));
    await page.waitForSelector('[data-testid="graph-panel"]');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type('Doctor');
    await page.waitForSelector('[data-testid="palette-item"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="doctor-mark"]');
    const kinds = await page.$$eval('[data-testid="doctor-mark"]', (els) =>
      els.map((e) => e.getAttribute('data-kind')),
    );
    expect(kinds).toEqual(['orphan_tool_calls', 'glued_line']);
    const text = await page.textContent('[data-testid="doctor-report"]');
    expect(text).toContain('pi ≤ 1.5.x (#9986)');
    expect(text).toContain('pi ≤ 0.84.3 (#8345)');
    await h.shot('doctor-01-preview-light');

    // Keyboard only: Tab from Close to the write button.
    for (let i = 0; i < 20; i++) {
      if (await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'doctor-write')) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="doctor-written"]');
    expect(await page.textContent('[data-testid="doctor-written"]')).toMatch(/Written .*\.jsonl/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await h.shot('doctor-02-written-dark');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // "Open it"
    await page.waitForFunction(() => !document.querySelector('[data-testid="doctor-dialog"]'));
    await page.waitForSelector('[data-testid="graph-panel"]');
    expect(h.pageErrors).toEqual([]);
  });

  it('lists the damaged sessions of the whole store, and repairs one from there', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('[data-testid="open-doctor"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="doctor-store-summary"]')?.textContent?.includes('with damage'),
      null,
      { timeout: 60_000 },
    );
    const rows = page.locator('[data-testid="doctor-store-row"]');
    const ours = rows.filter({ hasText: 'look around the repo' });
    expect(await ours.count()).toBe(1);
    expect(await ours.textContent()).toContain('orphan tool calls');
    // Repaired from its dialog a moment ago: the row says what was written.
    expect(await ours.locator('[data-testid="doctor-store-written"]').count()).toBe(1);
    await h.shot('doctor-03-store-light');
    const fork = rows.filter({ hasText: 'missing parent' }).first();
    await fork.locator('[data-testid="doctor-store-repair"]').focus();
    await page.keyboard.press('Enter');
    await fork.locator('[data-testid="doctor-store-written"]').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await h.shot('doctor-04-store-dark');
    await page.keyboard.press('Escape');
    expect(await page.$('[data-testid="doctor-store"]')).toBeNull();
    expect(h.pageErrors).toEqual([]);
  });
});
