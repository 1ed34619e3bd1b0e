/**
 * End to end, keyboard only: "Compare with…" from the palette, pick A and B among the branch tips,
 * Enter, read the ancestor, the first divergence and the per-file diffs; swap; then compare with a
 * fork in another session of the family. Screenshots light and dark in test-output/e2e/.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto } from '../../electron/shared/dto';
import { CWD, writeFamily, type Family } from '../core/compare-sessions';
import { projectDirName } from '../repo/helpers';
import { deepLink, HAVE_CHROMIUM, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('compare view (chromium)', () => {
  let h: Harness;
  let page: Page;
  let fam: Family;
  let mainId: string;

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    page = h.page;
    fam = await writeFamily(join(h.sessionsDir, projectDirName(CWD)));
    const list = await h.call<SessionListDto>('sessions.list', { refresh: true });
    mainId = list.sessions.find((s) => fam.file.endsWith(s.fileName))!.sessionId;
  });
  afterAll(async () => {
    await h?.close();
  });

  const palette = async (query: string) => {
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(query);
    await page.waitForSelector('[data-testid="palette-item"]');
  };
  const candidate = (k: number) => `[data-testid="compare-candidate"][data-index="${k}"]`;
  /** Moves the picker's cursor to the candidate whose text holds `text`. */
  const cursorTo = async (text: string) => {
    await page.keyboard.press('Home');
    for (let i = 0; i < 40; i++) {
      const on = await page.$('[data-testid="compare-candidate"][aria-selected="true"]');
      if (((await on?.textContent()) ?? '').includes(text)) return;
      await page.keyboard.press('ArrowDown');
    }
    throw new Error(`no candidate with ${text}`);
  };

  it('picks two tips by keyboard and reads the comparison', async () => {
    // The served URL carries the token; the deep link then selects A's leaf in the graph.
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.goto(deepLink(h.origin, mainId, fam.leafA));
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${fam.leafA}"]`);
    await palette('Compare with');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="compare-candidates"]:focus');
    expect(await page.textContent(candidate(0))).toContain(fam.leafA.slice(0, 8));

    // Pick A, pick B, Enter.
    await cursorTo(fam.leafB.slice(0, 8));
    await page.keyboard.press('b');
    await cursorTo(fam.leafA.slice(0, 8));
    await page.keyboard.press('a');
    expect(await page.textContent('[data-testid="compare-picks"]')).toContain(`B: ${fam.leafB.slice(0, 8)}`);
    await h.shot('compare-01-picker');
    await page.keyboard.press('Enter');

    await page.waitForSelector('[data-testid="compare-view"]');
    expect(await page.textContent('[data-testid="compare-ancestor"]')).toContain(fam.ancestorId);
    expect(await page.textContent('[data-testid="compare-first-divergence"]')).toBe('first divergence');
    const rows = await page.$$eval('[data-testid="compare-row"]', (els) => els.map((e) => e.textContent ?? ''));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('make it loud');
    expect(rows[0]).toContain('make it quiet');
    const paths = await page.$$eval('[data-testid="compare-file"]', (els) =>
      els.map((e) => e.getAttribute('data-path')),
    );
    expect(paths).toEqual(['src/a.ts', 'src/b.ts']);
    // src/a.ts: A replaced "two", B replaced "three"; the failed edit (ONE) shows nowhere.
    const fileA = await page.textContent('[data-testid="compare-file"][data-path="src/a.ts"]');
    expect(fileA).toContain('TWO');
    expect(fileA).not.toContain('ONE');
    expect(await page.textContent('[data-testid="compare-shell-B"]')).toContain('sed -i');
    // A against B directly: only src/a.ts, the file both sides know whole.
    expect(await page.$$eval('[data-testid="compare-versus"]', (els) => els.length)).toBe(1);
    await page.focus('[data-testid="compare-versus"] summary');
    await page.keyboard.press('Enter');
    expect(await page.textContent('[data-testid="compare-versus"]')).toContain('A → B');
    await page.focus('[data-testid="compare-view"]');
    await h.shot('compare-02-view-light');
    const toFiles = () => page.$eval('[data-testid="compare-files"]', (el) => el.scrollIntoView({ block: 'start' }));
    await toFiles();
    await h.shot('compare-03-files-light');

    // s swaps the sides; n keeps to the only divergent row.
    await page.keyboard.press('s');
    expect(await page.textContent('[data-testid="compare-shell-A"]')).toContain('sed -i');
    await page.keyboard.press('n');
    expect(await page.getAttribute('[data-testid="compare-row"]', 'aria-current')).toBe('true');
    await page.keyboard.press('s');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(100);
    await h.shot('compare-04-files-dark');
    await page.$eval('[data-testid="compare-view"] .compare-body', (el) => el.scrollTo(0, 0));
    await h.shot('compare-05-view-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(h.pageErrors).toEqual([]);
  });

  it('compares with a fork in another session of the family', async () => {
    await page.keyboard.press('Backspace');
    await page.waitForSelector('[data-testid="compare-candidates"]:focus');
    await cursorTo('fork');
    await page.keyboard.press('b');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="compare-view"]');
    expect(await page.textContent('[data-testid="compare-ancestor"]')).toContain(fam.ancestorId);
    const paths = await page.$$eval('[data-testid="compare-file"]', (els) =>
      els.map((e) => e.getAttribute('data-path')),
    );
    expect(paths).toEqual(['src/a.ts', 'src/b.ts', 'src/e.ts']);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="compare-panel"]', { state: 'detached' });
    expect(h.pageErrors).toEqual([]);
  });

  it('two nodes of the graph: A stays picked while another node is selected, which becomes B', async () => {
    // The first entry after the ancestor on A's path (the prompt "make it loud"), reached by the palette.
    const node = fam.branchA[fam.branchA.indexOf(fam.ancestorId) + 1]!;
    await palette(node);
    for (let i = 0; i < 40; i++) {
      if ((await page.getAttribute('[data-testid="palette-item"][data-selected="true"]', 'data-kind')) === 'entry')
        break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${node}"]`);
    await palette('Compare with');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="compare-candidates"]:focus');
    const picks = await page.textContent('[data-testid="compare-picks"]');
    expect(picks).toContain(`A: ${fam.leafA.slice(0, 8)}`);
    expect(picks).toContain(`B: ${node.slice(0, 8)}`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="compare-view"]');
    // The node is on A's path: it is the ancestor, and B has nothing after it.
    expect(await page.textContent('[data-testid="compare-ancestor"]')).toContain(node);
    // An entry of the view opens in the graph (Enter on it), closing the dialog.
    const first = (await page.getAttribute('.compare-entry', 'title'))!.split(' ')[1]!;
    await page.focus('.compare-entry');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="compare-panel"]', { state: 'detached' });
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${first}"]`);
    expect(fam.branchA).toContain(first);
    expect(h.pageErrors).toEqual([]);
  });
});
