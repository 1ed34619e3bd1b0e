/**
 * End to end: the secret radar marks a session in the list, the session lists its findings masked
 * (revealed one at a time, on purpose; each a link to its entry), and the export dialog previews
 * every replacement then downloads a redacted file (canopy serve). Light and dark screenshots.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePlantedSession, type PlantedSession } from '../fixtures/secrets/session';
import { projectDirName } from '../repo/helpers';
import { HAVE_CHROMIUM, openViaRow, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('secrets and export in Chromium', () => {
  let h: Harness;
  let s: PlantedSession;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    s = await writePlantedSession(join(h.sessionsDir, projectDirName('/work/proj')), 8);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('marks, lists masked, reveals on purpose, and exports redacted', async () => {
    const { page, server } = h;
    await page.goto(server.url);
    const marker = await page.waitForSelector(
      `[data-testid="session-row"][data-session-id="${s.sessionId}"] [data-testid="secrets-marker"]`,
      { timeout: 30_000 },
    );
    expect(Number(await marker.getAttribute('data-count'))).toBeGreaterThanOrEqual(s.plants.length);
    await openViaRow(page, s.sessionId);
    await page.click('[data-testid="session-secrets"] button');
    await page.waitForSelector('[data-testid="secret-finding"]');
    const before = await page.textContent('[data-testid="session-secrets"]');
    for (const p of s.plants) expect(before).not.toContain(p.value);
    await h.shot('share-01-findings');
    // Reveal one on purpose; the link selects its entry.
    const first = (await page.$$('[data-testid="secret-finding"]'))[0]!;
    await (await first.$('button:has-text("Reveal")'))!.click();
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="secret-value"]')?.textContent?.includes('****'),
    );
    const value = await first.$eval('[data-testid="secret-value"]', (e) => e.textContent ?? '');
    expect(value.length).toBeGreaterThan(8);
    expect(s.plants.some((p) => p.text.includes(value))).toBe(true);
    await (await first.$('button.link-button'))!.click();
    await page.waitForSelector('[data-testid="inspector"][data-entry-id]');

    // Export: redaction on by default, every replacement previewed, then a download.
    await page.click('[data-testid="export-open"]');
    await page.waitForSelector('[data-testid="export-replacements"]', { timeout: 30_000 });
    expect(await page.isChecked('[data-testid="export-redact"]')).toBe(true);
    const summary = await page.textContent('[data-testid="export-replacements"]');
    expect(summary).toMatch(/Replaces \d+ values \(.*github/);
    const previewText = await page.textContent('[data-testid="export-preview"]');
    for (const p of s.plants) expect(previewText).not.toContain(p.value);
    await h.shot('share-02-export-light');
    await page.keyboard.press('Escape');
    await page.selectOption('[data-testid="theme-switch"]', 'dark');
    await page.click('[data-testid="export-open"]');
    await page.waitForSelector('[data-testid="export-replacements"]', { timeout: 30_000 });
    await h.shot('share-03-export-dark');
    await page.keyboard.press('Escape');
    await page.selectOption('[data-testid="theme-switch"]', 'system');
    await page.click('[data-testid="export-open"]');
    await page.waitForSelector('[data-testid="export-replacements"]', { timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-write"]')]);
    const text = await readFile((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(/\.redacted\.html$/);
    for (const p of s.plants) expect(text).not.toContain(p.value);
    expect(text).toContain('[REDACTED:');
    await page.waitForSelector('[data-testid="export-result"]');
    await page.keyboard.press('Escape');
    expect(await page.$('[data-testid="export-dialog"]')).toBeNull();
  });
});
