/**
 * End to end: the search panel (Ctrl+Shift+F) finds text from inside a session — a phrase of a
 * reply and a file path of a tool call — and a hit opens the session with that entry in the inspector.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistant, header, projectDirName, user, writeSession } from '../repo/helpers';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

const SID = '019d0000-0000-7000-8000-00000000e2e5';

describe.skipIf(!HAVE_CHROMIUM)('search panel in Chromium', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 4 });
    const call = assistant('a2', 'u1', '');
    (call.message as Record<string, unknown>).content = [
      { type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'src/deeply/hidden-module.ts' } },
    ];
    await writeSession(
      join(h.sessionsDir, projectDirName('/home/e2e/search')),
      `2026-01-09T10-00-00-000Z_${SID}.jsonl`,
      [
        header(SID, '/home/e2e/search'),
        user('u1', null, 'where is the config loader'),
        call,
        assistant('a3', 'a2', 'The loader reads the quokka manifest first, then the rest.'),
        user('u4', 'a3', 'thanks'),
      ],
    );
  });

  afterAll(async () => {
    await h?.close();
  });

  it('from the search box to the focused entry', async () => {
    const { page, server } = h;
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.keyboard.press('Control+Shift+F');
    await page.waitForSelector('[data-testid="search-input"]');
    await page.fill('[data-testid="search-input"]', '"quokka manifest"');
    const hit = await page.waitForSelector('[data-testid="search-hit"][data-entry-id="a3"]', { timeout: 20_000 });
    expect(await page.$$('[data-testid="search-hit"]')).toHaveLength(1);
    expect(await hit.$eval('mark', (m) => m.textContent)).toBe('quokka manifest');
    await h.shot('search-01-panel');
    await hit.click();
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${SID}"]`);
    await page.waitForSelector('[data-testid="inspector"][data-entry-id="a3"]');
    expect(await page.textContent('[data-testid="inspector-line"]')).toBe('line 4');
    // The match is marked in the inspector, drawn by the CSS Custom Highlight API.
    await page.waitForSelector('[data-testid="inspector"][data-entry-id="a3"][data-marks]');
    expect(Number(await page.getAttribute('[data-testid="inspector"]', 'data-marks'))).toBeGreaterThanOrEqual(1);
    const marked = await page.evaluate(() => {
      const h = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('canopy-match');
      return h ? [...h].map((r) => r.toString().toLowerCase()) : [];
    });
    expect(marked.length).toBeGreaterThanOrEqual(1);
    for (const t of marked) expect(t).toBe('quokka manifest');
    await h.shot('search-03-marked');
    expect(await page.$('[data-testid="search-panel"]')).toBeNull();

    // A path from a tool call, with a filter; a bad regex says why.
    await page.keyboard.press('Control+Shift+F');
    await page.fill('[data-testid="search-input"]', 'file:hidden-module role:assistant');
    await (await page.waitForSelector('[data-testid="search-hit"][data-entry-id="a2"]', { timeout: 20_000 })).click();
    await page.waitForSelector('[data-testid="inspector"][data-entry-id="a2"]');
    await page.keyboard.press('Control+Shift+F');
    await page.fill('[data-testid="search-input"]', 're:(oops');
    await page.waitForSelector('.search-error');
    expect(await page.textContent('[data-testid="search-status"]')).toContain('not a valid regular expression');
    await h.shot('search-02-bad-regex');
    expect(h.pageErrors).toEqual([]);
  });
});
