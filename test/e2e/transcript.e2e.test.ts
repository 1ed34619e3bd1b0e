/**
 * End to end, reading a conversation: the transcript of the path (tool calls folded, images as
 * placeholders, the compaction and the branch point marked), in step with the graph both ways,
 * a what-if leaf's transcript, and a live session followed as lines are appended and paused by a
 * manual move. Chromium at 1280×800 against `canopy serve`, keyboard where it matters.
 */
import { appendFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { assistantLine, DAILY_ID, userLine } from './daily-session';
import { openDaily } from './daily-open';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('transcript and follow (chromium)', () => {
  let h: Harness;
  let page: Page;
  let file: string;

  const rowOf = (id: string) => `[data-testid="transcript-row"][data-entry-id="${id}"]`;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2, watch: true });
    page = h.page;
    file = await openDaily(h);
    expect(await page.title()).toBe('Read the config loader and tell me what breaks — Canopy');
  }, 180_000);
  afterAll(() => h?.close());

  it('reads the path to the leaf: bodies, folded tools, image placeholder, compaction and branch point', async () => {
    const ids = await page.$$eval('[data-testid="transcript-row"]', (els) =>
      els.map((e) => e.getAttribute('data-entry-id')),
    );
    expect(ids).toEqual(['u1', 'a1', 't1', 'a2', 'u2', 'a3', 'c1', 'u4', 'a4']);
    await page.waitForSelector(`${rowOf('a2')} .transcript-body strong`);
    expect(await page.textContent(`${rowOf('a2')} .transcript-body`)).toContain('missing files');
    // Tool call folded, thinking folded, the image a placeholder.
    expect(await page.$eval(`${rowOf('a1')} [data-testid="tool-call"]`, (d) => (d as HTMLDetailsElement).open)).toBe(
      false,
    );
    expect(await page.$eval(`${rowOf('a1')} [data-testid="thinking"]`, (d) => (d as HTMLDetailsElement).open)).toBe(
      false,
    );
    await page.waitForSelector(`${rowOf('u2')} [data-testid="image-placeholder"]`);
    expect(await page.$(`${rowOf('u2')} img`)).toBeNull();
    expect(await page.getAttribute(rowOf('c1'), 'class')).toContain('t-compaction');
    expect(await page.textContent(`${rowOf('u2')} [data-testid="branch-offer"]`)).toContain('1 other branch');
    await h.shot('transcript-light');
  });

  it('is in step with the graph: a row click selects, a graph selection scrolls', async () => {
    await page.click(`${rowOf('a2')} .t-kind`);
    await page.waitForSelector('[data-testid="graph-panel"] .react-flow__node[data-id="a2"]');
    expect(await page.getAttribute(rowOf('a2'), 'class')).toContain('selected');
    // Following paused by the manual move.
    expect(await page.getAttribute('[data-testid="follow-toggle"]', 'aria-pressed')).toBe('false');
  });

  it("shows a what-if leaf's path when a branch is offered and picked", async () => {
    await page.click(`${rowOf('u2')} [data-testid="branch-option"]`);
    await page.waitForSelector(`[data-testid="transcript"][data-leaf-id="x2"]`);
    const ids = await page.$$eval('[data-testid="transcript-row"]', (els) =>
      els.map((e) => e.getAttribute('data-entry-id')),
    );
    expect(ids.slice(-2)).toEqual(['x1', 'x2']);
    expect(ids).not.toContain('a3');
    await page.click('text=back to the leaf');
    await page.waitForSelector(`[data-testid="transcript"][data-leaf-id="a4"]`);
  });

  it('follows a live session as lines are appended; a manual move pauses it and marks what arrived', async () => {
    await page.click('[data-testid="follow-toggle"]');
    expect(await page.getAttribute('[data-testid="follow-toggle"]', 'aria-pressed')).toBe('true');
    appendFileSync(file, `${userLine('u5', 'a4', 'And the tests?')}\n`);
    await page.waitForSelector(rowOf('u5'), { timeout: 15_000 });
    await page.waitForSelector('[data-testid="inspector-entry-id"]:has-text("u5")', { state: 'attached' });
    appendFileSync(file, `${assistantLine('a5', 'u5', [{ type: 'text', text: 'Added two tests.' }])}\n`);
    await page.waitForSelector(rowOf('a5'), { timeout: 15_000 });
    await page.waitForSelector('[data-testid="inspector-entry-id"]:has-text("a5")', { state: 'attached' });
    // A manual move: keyboard in the graph selects another entry.
    await page.click(`${rowOf('u4')} .t-kind`);
    expect(await page.getAttribute('[data-testid="follow-toggle"]', 'aria-pressed')).toBe('false');
    appendFileSync(file, `${userLine('u6', 'a5', 'Run them')}\n`);
    await page.waitForSelector(rowOf('u6'), { timeout: 15_000 });
    await page.waitForSelector('[data-testid="unread-marker"]');
    expect(await page.textContent('[data-testid="follow-toggle"]')).toContain('1 new');
    expect(await page.textContent('[data-testid="inspector-entry-id"]')).toBe('u4');
    await h.shot('transcript-follow-paused');
    await page.click('[data-testid="follow-toggle"]');
    await page.waitForSelector('[data-testid="inspector-entry-id"]:has-text("u6")', { state: 'attached' });
    expect(await page.$('[data-testid="unread-marker"]')).toBeNull();
  });
  it('keyboard like /resume: "/" focuses the filter, typing puts the cursor on the first result, Down skips headings, Enter opens', async () => {
    await page.locator('[data-testid="graph-canvas"]').focus();
    await page.keyboard.press('/');
    await page.keyboard.type('o');
    const cursor = '[data-testid="session-list"] [role="option"][aria-selected="true"] [data-testid="session-row"]';
    await page.waitForSelector(cursor);
    const seen = [await page.getAttribute(cursor, 'data-session-id')];
    // Through more rows than one project holds: the cursor never rests on a project heading.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('ArrowDown');
      seen.push(await page.getAttribute(cursor, 'data-session-id'));
    }
    expect(new Set(seen).size).toBe(9);
    await page.keyboard.press('ArrowUp');
    const second = seen[7];
    expect(await page.getAttribute(cursor, 'data-session-id')).toBe(second);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${second}"]`);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
  });

  it('arrows in the graph move the selection and the inspector follows without Enter', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('config loader');
    await page.waitForSelector('[data-testid="palette-item"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${DAILY_ID}"]`);
    await page.click('[data-testid="tab-entry"]');
    await page.locator('[data-testid="graph-canvas"]').focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForSelector('[data-testid="inspector-entry-id"]');
    const first = await page.textContent('[data-testid="inspector-entry-id"]');
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid="inspector-entry-id"]')?.textContent !== before,
      first,
    );
  });

  it('Down from the search box reaches the hits; Enter opens one', async () => {
    await page.keyboard.press('Control+Shift+F');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'search-input');
    // A phrase: a lone word also matches sessions whose name or folder holds its letters in order (pi's
    // fuzzy rule), and which came first depended on how far indexing had got.
    // Filled, not typed key by key: under load a key typed while the panel mounts lost its first letters.
    await page.fill('[data-testid="search-input"]', '"loadConfig now checks"');
    await page.waitForSelector('[data-testid="search-hit"][data-entry-id="a4"]', { timeout: 30_000 });
    await page.focus('[data-testid="search-input"]');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    expect(focused).toBe('search-hit');
    const entry = await page.evaluate(() => document.activeElement?.getAttribute('data-entry-id'));
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${entry}"]`);
  });
  it("forks of one parent have distinct titles in the list, none the parent's", async () => {
    const list = await h.call<SessionListDto>('sessions.list', {});
    const byParent = new Map<string, string[]>();
    for (const r of list.sessions)
      if (r.parentSessionId) byParent.set(r.parentSessionId, [...(byParent.get(r.parentSessionId) ?? []), r.sessionId]);
    const [parent, forks] = [...byParent].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(forks.length).toBeGreaterThan(1);
    const titleOf = async (id: string) => {
      await page.fill('[data-testid="session-filter"]', id);
      const sel = `[data-testid="session-row"][data-session-id="${id}"] .session-title`;
      await page.waitForSelector(sel);
      // The summary (name, first own message) fills in the background.
      await page.waitForFunction(
        (q) => !document.querySelector(q)?.closest('[data-testid="session-row"]')?.textContent?.includes('… entries'),
        sel,
      );
      return (await page.textContent(sel))!.trim();
    };
    const titles = [];
    for (const id of forks) titles.push(await titleOf(id));
    const parentTitle = await titleOf(parent);
    await page.fill('[data-testid="session-filter"]', '');
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).not.toContain(parentTitle);
    expect(titles.every((t) => !t.includes('```'))).toBe(true);
  });
});
