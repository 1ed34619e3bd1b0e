/**
 * End to end: the Usage and Storage views over a store with pi-written forks, a clone and an image
 * session — calendar, bars and table filled in the background, a model picked lists its sessions
 * and one opens; a slim copy previewed and written from the Storage view. Light and dark screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utimesSync } from 'node:fs';
import { writePiStore, type PiStore } from '../store-views/pi-store';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('usage and storage views in Chromium', () => {
  let h: Harness;
  let pi: PiStore;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 3 });
    pi = await writePiStore(h.sessionsDir);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  it('usage: calendar, bars, table, and a model to its sessions', async () => {
    const { page, server } = h;
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.click('[data-testid="open-usage"]');
    await page.waitForSelector('[data-testid="usage-panel"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="usage-summary"]')?.textContent?.includes('per-file sum'),
      null,
      { timeout: 30_000 },
    );
    const summary = await page.textContent('[data-testid="usage-summary"]');
    expect(summary).toMatch(/\$[\d.]+ over \d+ assistant messages/);
    expect(await page.$$('[data-testid="usage-calendar"] canvas')).not.toHaveLength(0);
    expect(await page.$$('[data-testid="usage-models"] canvas')).not.toHaveLength(0);
    await h.shot('store-01-usage-light');

    // Keyboard: the table's model buttons are reachable; Enter lists the model's sessions.
    await page.getByRole('button', { name: 'model', exact: true }).click();
    const gpt = page.locator('[data-testid="usage-table"] button', { hasText: 'gpt-5-codex' });
    await gpt.focus();
    await page.keyboard.press('Enter');
    const sessions = page.locator('[data-testid="usage-sessions"] li button');
    await sessions.first().waitFor();
    expect(await sessions.count()).toBe(2); // the fork and its clone spent on gpt-5-codex
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await h.shot('store-02-usage-dark');
    await sessions.first().click();
    await page.waitForSelector('[data-testid="graph-panel"]');
    expect(await page.$('[data-testid="usage-panel"]')).toBeNull();
  });

  it('storage: the split, and a slim copy previewed then written', async () => {
    const { page } = h;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('[data-testid="open-storage"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="storage-summary"]')?.textContent?.includes('fork families'),
      null,
      { timeout: 30_000 },
    );
    expect(await page.$$('[data-testid="storage-chart"] canvas')).not.toHaveLength(0);
    // The image session: the one whose images column is filled.
    const row = page
      .locator('[data-testid="storage-table"] tbody tr', { has: page.locator('td:nth-child(3):not(:empty)') })
      .first();
    await row.locator('button').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="slim-preview"]')?.textContent?.includes('images replaced'),
    );
    expect(await page.textContent('[data-testid="slim-preview"]')).toMatch(/1 images replaced/);
    await h.shot('store-03-storage-light');
    await page.click('[data-testid="slim-write"]');
    await page.waitForSelector('[data-testid="slim-result"]');
    expect(await page.textContent('[data-testid="slim-result"]')).toMatch(/Written .*\.jsonl/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await h.shot('store-04-storage-dark');
    // Archive: the pi-written fork family, all of it untouched for 40 days, previewed and moved.
    const old = (Date.now() - 40 * 86_400_000) / 1000;
    for (const f of [pi.files.a, pi.files.fork, pi.files.clone]) utimesSync(f, old, old);
    await page.getByRole('button', { name: /Fork families by bytes/ }).click();
    await page.click('[data-testid="archive-preview"]');
    const family = page.locator('.archive-list li', { hasText: '3 sessions' });
    await family.waitFor();
    expect(await page.locator('.archive-list li').count()).toBe(1);
    await h.shot('store-05-archive-preview-dark');
    await page.click('[data-testid="archive-move"]');
    await page.waitForSelector('[data-testid="archive-result"]');
    expect(await page.textContent('[data-testid="archive-result"]')).toMatch(/Moved 1 family/);
    await page.keyboard.press('Escape');
    expect(await page.$('[data-testid="storage-panel"]')).toBeNull();
    expect(h.pageErrors).toEqual([]);
  });
});
