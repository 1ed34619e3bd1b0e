/**
 * End to end: the search panel (Ctrl+Shift+F) finds text from inside a session — a phrase of a
 * reply and a file path of a tool call — and a hit opens the session with that entry in the inspector.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistant, header, projectDirName, user, writeSession } from '../repo/helpers';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

const SID = '019d0000-0000-7000-8000-00000000e2e5';
const MANY = '019d0000-0000-7000-8000-00000000e2e6';

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
    // 250 entries holding a phrase of common words (more than two pages), and a line a catastrophic regex chokes on.
    const many = [header(MANY, '/home/e2e/many')];
    for (let i = 0; i < 250; i++)
      many.push(user(`m${i}`, i ? `m${i - 1}` : null, `note ${i}: it is not the same way as before`));
    many.push(user('aaa', 'm249', `${'a'.repeat(32)}!`));
    await writeSession(
      join(h.sessionsDir, projectDirName('/home/e2e/many')),
      `2026-01-08T10-00-00-000Z_${MANY}.jsonl`,
      many,
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

  it('pages a common phrase to its last hit, and stops a catastrophic regex', async () => {
    const { page, server } = h;
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.keyboard.press('Control+Shift+F');
    await page.fill('[data-testid="search-input"]', '"it is not the same way"');
    const status = () => page.textContent('[data-testid="search-status"]');
    const count = () => page.$$eval('[data-testid="search-hit"]', (els) => els.length);
    // A full first page (a page answered early under load is continued at once, so at least one).
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-hit"]').length >= 100, null, {
      timeout: 20_000,
    });
    await page.waitForSelector('[data-testid="search-more"]');
    expect(await status()).toMatch(/^\d+\+ hits/);
    await h.shot('search-04-first-page');
    // Load more by keyboard: the button is a tab stop.
    const before = await count();
    await page.focus('[data-testid="search-more"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="search-hit"]').length > n, before);
    // Then scrolling near the end loads the rest.
    await page.$eval('[data-testid="search-results"]', (el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="search-hit"]').length === 250);
    await page.waitForFunction(() => !document.querySelector('[data-testid="search-more"]'));
    expect(await status()).toContain('250 hits in 1 session');
    const ids = await page.$$eval('[data-testid="search-hit"]', (els) =>
      els.map((e) => e.getAttribute('data-entry-id')),
    );
    expect(new Set(ids).size).toBe(250);

    // A regex that backtracks for ever is stopped at its limit and says so; serve answers the next query.
    await page.fill('[data-testid="search-input"]', 're:(a+)+$');
    await page.waitForSelector('text=was stopped', { timeout: 20_000 });
    expect(await status()).toMatch(/regex ran past 1 s/);
    await h.shot('search-05-regex-stopped');
    await page.fill('[data-testid="search-input"]', '"quokka manifest"');
    await page.waitForSelector('[data-testid="search-hit"][data-entry-id="a3"]', { timeout: 5_000 });
    expect(h.pageErrors).toEqual([]);
  });
});
