/**
 * End to end, a live session at the pixel: lines appended to a session open in Chromium (against
 * `canopy serve`, watching its root) are drawn and followed from the `session.appended` deltas
 * alone — the page asks for neither session.open nor session.context again — and a burst of 20
 * appends shows every one of them, in order. A rewritten file is fetched again once.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantLine, dailySessionText, userLine } from './daily-session';
import { openDaily } from './daily-open';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

describe.skipIf(!HAVE_CHROMIUM)('live deltas (chromium)', () => {
  let h: Harness;
  let page: Page;
  let file: string;
  /** API channels the page asked for, in order. */
  const asked: string[] = [];
  const count = (channel: string) => asked.filter((c) => c === channel).length;
  const rowOf = (id: string) => `[data-testid="transcript-row"][data-entry-id="${id}"]`;
  const followed = (id: string) =>
    page.waitForSelector(`[data-testid="inspector-entry-id"]:has-text("${id}")`, {
      state: 'attached',
      timeout: 15_000,
    });

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2, watch: true });
    page = h.page;
    page.on('request', (r) => {
      const m = /\/api\/([\w.]+)$/.exec(new URL(r.url()).pathname);
      if (m) asked.push(m[1]!);
    });
    file = await openDaily(h);
  }, 180_000);
  afterAll(() => h?.close());

  it('an append is drawn, selected and followed from its delta: no session.open or session.context again', async () => {
    const opens = count('session.open');
    const contexts = count('session.context');
    appendFileSync(file, `${userLine('u5', 'a4', 'And the tests?')}\n`);
    await page.waitForSelector('.react-flow__node[data-id="u5"]', { timeout: 15_000 });
    await followed('u5');
    await page.waitForSelector(rowOf('u5'));
    appendFileSync(file, `${assistantLine('a5', 'u5', [{ type: 'text', text: 'Added two tests.' }])}\n`);
    await page.waitForSelector('.react-flow__node[data-id="a5"]', { timeout: 15_000 });
    await followed('a5');
    await page.waitForSelector(`${rowOf('a5')}:has-text("Added two tests.")`);
    expect(count('session.open')).toBe(opens);
    expect(count('session.context')).toBe(contexts);
    await h.shot('live-followed');
  });

  it('a burst of 20 appends: every one shown, in order, the last followed, still no refetch', async () => {
    const opens = count('session.open');
    const contexts = count('session.context');
    const onPath = async () => parseInt((await page.textContent('[data-testid="transcript-count"]'))!, 10);
    const before = await onPath();
    let parent = 'a5';
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = `burst${i}`;
      appendFileSync(file, `${userLine(id, parent, `burst line ${i}`)}\n`);
      ids.push(id);
      parent = id;
    }
    await followed('burst19');
    await page.waitForSelector(rowOf('burst19'));
    expect(await onPath()).toBe(before + 20);
    // The rows drawn (the transcript draws those near the leaf) are the burst's, in order, none missing.
    const rows = await page.$$eval('[data-testid="transcript-row"]', (els) =>
      els.map((e) => e.getAttribute('data-entry-id')),
    );
    const drawn = rows.filter((r) => r?.startsWith('burst'));
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn).toEqual(ids.slice(20 - drawn.length));
    expect(count('session.open')).toBe(opens);
    expect(count('session.context')).toBe(contexts);
  });

  it('a rewritten file is fetched again once', async () => {
    const opens = count('session.open');
    writeFileSync(file, dailySessionText());
    await page.waitForSelector(rowOf('burst19'), { state: 'detached', timeout: 15_000 });
    await page.waitForSelector(rowOf('a4'));
    expect(count('session.open')).toBe(opens + 1);
  });

  it('ran without a script error or console error', () => {
    expect(h.pageErrors).toEqual([]);
  });
});
