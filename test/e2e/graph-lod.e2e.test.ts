/**
 * End to end, the graph at real size: fit draws the skeleton (every tip and compaction accounted
 * for, 10–400 nodes, labels ≥ 11 px on screen), the docked overview covers no node, zooming in
 * opens detail, zoom to leaf works in the graph and the tree list, keyboard only. Pi-written demo
 * sessions and a generated session of a few thousand entries, chromium at 1280×800, light and dark.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { HAVE_CHROMIUM, REPO, startHarness, type Harness } from './harness';
import { fitFacts, openByPalette, settled } from './graph-facts';

const BIG_ID = '019c0000-0000-7000-8000-0000000b1d00';
const DEMO_IDS = [
  '2b01ac51-5404-4f8a-9409-2001e20706d5',
  '01cecbcd-0466-4622-ac7c-d655636c69fc',
  '121d4678-6ca3-4653-a4a0-2fc660407a5c',
  '8d30692b-926e-4f5d-b577-6f7fcd7cd37f',
  '2fe6b40b-de32-420a-922d-9a3fda90a08d',
];

describe.skipIf(!HAVE_CHROMIUM)('the graph at real size (chromium)', () => {
  let h: Harness;
  let page: Page;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 1 });
    page = h.page;
    cpSync(join(REPO, 'resources/demo'), h.sessionsDir, { recursive: true });
    const bigDir = join(h.sessionsDir, '--home-you-projects-big--');
    mkdirSync(bigDir, { recursive: true });
    writeSessionFile(join(bigDir, `2026-03-01T08-00-00-000Z_${BIG_ID}.jsonl`), {
      targetBytes: Number.POSITIVE_INFINITY,
      maxEntries: 4000,
      seed: 36,
      cwd: '/home/you/projects/big',
      sessionId: BIG_ID,
    });
    await page.goto(h.server.url);
    await page.evaluate(() => localStorage.setItem('canopy.theme', 'light'));
    await page.reload();
    await page.waitForSelector('[data-testid="session-row"]');
  }, 180_000);
  afterAll(() => h?.close());

  const fitByKeyboard = async () => {
    // As a user does: once the opened session stops moving (its leaf centred on open), not mid-open.
    await settled(page);
    await page.focus('[data-testid="graph-canvas"]');
    await page.keyboard.press('Shift+F');
    await page.waitForSelector('[data-testid="graph-canvas"][data-level="0"]');
    await settled(page);
  };

  it('fit: the skeleton accounts for every tip and compaction, labels readable, nothing under the overview', async () => {
    for (const id of [...DEMO_IDS, BIG_ID]) {
      await openByPalette(page, id);
      await page.waitForSelector('[data-testid="graph-overview"]');
      await fitByKeyboard();
      const f = await fitFacts(page);
      const where = `${id} at fit`;
      expect(f.tipsShown, `${where}: tips`).toBe(f.tipsTotal);
      expect(f.compactionsShown, `${where}: compactions`).toBe(f.compactionsTotal);
      expect(f.underOverview, `${where}: nodes under the overview`).toEqual([]);
      expect(f.outside, `${where}: nodes cut off by the pane`).toEqual([]);
      expect(f.drawn, where).toBeLessThanOrEqual(400);
      expect(f.readable / Math.max(1, f.labels), `${where}: labels ≥ 11 px`).toBeGreaterThanOrEqual(0.95);
      if (id === BIG_ID) {
        expect(f.drawn, where).toBeGreaterThanOrEqual(10);
        expect(f.kinds, where).toEqual(expect.arrayContaining(['entry', 'chain', 'cluster']));
        await h.shot('graph-fit-big-light');
      }
      if (id === DEMO_IDS[3]) await h.shot('graph-fit-small-light');
    }
  });

  it('zooming in opens detail down to every entry; zoom to leaf (Shift+L) centres the leaf', async () => {
    await openByPalette(page, BIG_ID);
    await fitByKeyboard();
    const before = await page.$$eval('.react-flow__node', (els) => els.length);
    const pane = (await page.locator('[data-testid="graph-canvas"]').boundingBox())!;
    await page.mouse.move(pane.x + pane.width / 3, pane.y + pane.height / 2);
    // Level 1 by the wheel, level 2 by the keyboard (+).
    for (let k = 0; k < 4; k++) await page.mouse.wheel(0, -120);
    await page.waitForSelector('[data-testid="graph-canvas"][data-level="1"]', { timeout: 5000 });
    await page.waitForTimeout(300);
    await page.focus('[data-testid="graph-canvas"]');
    for (let k = 0; k < 3; k++) {
      await page.keyboard.press('+');
      await page.waitForTimeout(250);
    }
    await page.waitForSelector('[data-testid="graph-canvas"][data-level="2"]', { timeout: 5000 });
    await page.waitForTimeout(300);
    const rows = await page.$$eval('.react-flow__node[data-kind="entry"]', (els) => els.length);
    expect(rows).toBeGreaterThan(0);
    const facts = await fitFacts(page);
    expect(facts.readable / Math.max(1, facts.labels)).toBeGreaterThanOrEqual(0.95);
    expect(before).toBeGreaterThan(0);
    // Zoom to leaf, keyboard only: the leaf is drawn on its own, in the pane.
    const leaf = (await page.getAttribute('[data-testid="graph-panel"]', 'data-leaf-id'))!;
    await fitByKeyboard();
    await page.keyboard.press('Shift+L');
    const node = page.locator(`.react-flow__node[data-id="${leaf}"]`);
    await node.waitFor();
    await page.waitForTimeout(400);
    const box = (await node.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(pane.x);
    expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width);
    expect(box.y).toBeGreaterThanOrEqual(pane.y);
    expect(box.y + box.height).toBeLessThanOrEqual(pane.y + pane.height);
  });

  it('the tree list opens at the leaf, Shift+L brings the cursor back to it, indents leave the text room', async () => {
    await openByPalette(page, BIG_ID);
    const leaf = (await page.getAttribute('[data-testid="graph-panel"]', 'data-leaf-id'))!;
    await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="tree-list-toggle"]')!.focus());
    await page.keyboard.press('Enter');
    const row = page.locator(`[data-testid="tree-row"][data-entry-id="${leaf}"]`);
    await row.waitFor();
    expect(await row.getAttribute('aria-selected')).toBe('true');
    await page.focus('[data-testid="tree-list"]');
    for (let k = 0; k < 6; k++) await page.keyboard.press('PageUp');
    expect(await row.count()).toBe(0); // scrolled away: the virtual list no longer draws it
    await page.keyboard.press('Shift+L');
    await row.waitFor();
    await page.waitForFunction(
      (id) =>
        document.querySelector(`[data-testid="tree-row"][data-entry-id="${id}"]`)?.getAttribute('aria-selected') ===
        'true',
      leaf,
    );
    // Indentation is capped: every drawn row's text starts in the list's left third.
    const starts = await page.$$eval('[data-testid="tree-row"] .tree-kind', (els) => {
      const list = document.querySelector('[data-testid="tree-list"]')!.getBoundingClientRect();
      return els.map((e) => (e.getBoundingClientRect().left - list.left) / list.width);
    });
    expect(Math.max(...starts)).toBeLessThan(0.34);
    await h.shot('tree-list-leaf-light');
    await page.evaluate(() => localStorage.setItem('canopy.theme', 'dark'));
    await page.reload();
    await openByPalette(page, BIG_ID);
    await page.waitForSelector('[data-testid="graph-canvas"], [data-testid="tree-list"]');
    if (!(await page.$('[data-testid="tree-list"]'))) await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector(`[data-testid="tree-row"][data-entry-id="${leaf}"][aria-selected="true"]`);
    await h.shot('tree-list-leaf-dark');
    await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector('[data-testid="graph-canvas"]');
  });

  it('looks right in the dark theme, small and big', async () => {
    for (const [id, name] of [
      [DEMO_IDS[3]!, 'graph-fit-small-dark'],
      [BIG_ID, 'graph-fit-big-dark'],
    ] as const) {
      await openByPalette(page, id);
      await fitByKeyboard();
      const f = await fitFacts(page);
      expect(f.underOverview).toEqual([]);
      await h.shot(name);
    }
    expect(h.pageErrors).toEqual([]);
  });
});
