/**
 * End to end, daily use by keyboard: the command palette to a session and to an entry, a walk from
 * the list to a written fork without the mouse, a pane width kept across a reload, and the dark
 * theme's text contrast measured from computed colours. Chromium against `canopy serve`.
 */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionListDto, SessionRowDto } from '../../electron/shared/dto';
import { graphFromWire, type SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe.skipIf(!HAVE_CHROMIUM)('daily use (chromium)', () => {
  let h: Harness;
  let page: Page;
  let list: SessionListDto;
  /** A CA session with an assistant entry below the root (a fork "at" it is allowed). */
  let target: { row: SessionRowDto; entryId: string };

  const palette = async (query: string) => {
    await page.keyboard.press('Control+k');
    await page.waitForSelector('[data-testid="palette-input"]');
    await page.keyboard.type(query);
    await page.waitForSelector('[data-testid="palette-item"]');
  };

  /** Moves the palette's selection down to the first entry item (the actions group may come first). */
  const selectEntryItem = async () => {
    for (let i = 0; i < 60; i++) {
      if ((await page.getAttribute('[data-testid="palette-item"][data-selected="true"]', 'data-kind')) === 'entry')
        return;
      await page.keyboard.press('ArrowDown');
    }
    throw new Error('no entry item in the palette');
  };

  beforeAll(async () => {
    h = await startHarness();
    page = h.page;
    list = await h.call<SessionListDto>('sessions.list', {});
    for (const row of list.sessions) {
      const file = h.corpus.find((c) => c.path === row.path || row.path.endsWith(c.path.split('/').pop()!));
      if (!file || file.writer !== 'ca') continue;
      const r = await h.api<SessionGraphWireDto>('session.open', { sessionId: row.sessionId });
      if (!r.body.ok) continue;
      const graph = graphFromWire(r.body.data);
      if (graph.issues.length > 0) continue;
      const entry = graph.entries.find(
        (e) => e.type === 'message' && e.role === 'assistant' && e.parentId !== null && e.hasText,
      );
      if (entry) {
        target = { row, entryId: entry.id };
        break;
      }
    }
    expect(target).toBeDefined();
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('the palette jumps to a session and to an entry of it', async () => {
    await palette(target.row.sessionId);
    expect(await page.getAttribute('[data-testid="palette-item"][data-kind="session"]', 'data-id')).toBe(
      target.row.sessionId,
    );
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${target.row.sessionId}"]`);
    expect(await page.$('[data-testid="palette"]')).toBeNull();

    await palette(target.entryId);
    const first = await page.waitForSelector('[data-testid="palette-item"][data-kind="entry"]');
    expect(await first.getAttribute('data-id')).toBe(target.entryId);
    await selectEntryItem();
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${target.entryId}"]`);
    await h.shot('20-palette-entry');
  });

  it('the palette opens a session from its pasted file path (looked up by main)', async () => {
    const other = list.sessions.find((r) => r.sessionId !== target.row.sessionId)!;
    await palette(other.path);
    const item = await page.waitForSelector(
      `[data-testid="palette-item"][data-kind="session"][data-id="${other.sessionId}"]`,
    );
    expect(await item.textContent()).toContain(`Open ${other.path}`);
    // It is first: the lookup ranks above any fuzzy match of the path's letters.
    expect(await page.getAttribute('[data-testid="palette-item"][data-kind="session"]', 'data-id')).toBe(
      other.sessionId,
    );
    for (
      let i = 0;
      i < 60 &&
      (await page.getAttribute('[data-testid="palette-item"][data-selected="true"]', 'data-id')) !== other.sessionId;
      i++
    )
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${other.sessionId}"]`);
  });

  it('walks from the session list to a written fork with the keyboard only', async () => {
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.keyboard.press('/');
    await page.keyboard.type(target.row.sessionId);
    await page.keyboard.press('Alt+1');
    // The filtered list: the project heading, then the session.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${target.row.sessionId}"]`);

    await palette(target.entryId);
    await selectEntryItem();
    await page.keyboard.press('Enter');
    await page.waitForSelector(
      `[data-testid="inspector"][data-entry-id="${target.entryId}"] [data-testid="fork-preview"][data-status="ok"]`,
    );

    await palette('fork here');
    expect(await page.getAttribute('[data-testid="palette-item"][data-selected="true"]', 'data-id')).toBe('entry.fork');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'fork-button');
    await page.keyboard.press('Enter');
    const result = await page.waitForSelector('[data-testid="fork-result"]');
    const newId = (await result.getAttribute('data-session-id'))!;
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${newId}"]`);
    const listed = await h.call<SessionListDto>('sessions.list', {});
    const written = listed.sessions.find((r) => r.sessionId === newId)!;
    expect(written.parentSessionId).toBe(target.row.sessionId);
    expect(existsSync(written.path)).toBe(true);
  });

  it('keeps a pane width across a reload', async () => {
    const width = () => page.$eval('[data-panel][id="sessions"]', (el) => el.getBoundingClientRect().width);
    const before = await width();
    await page.focus('[data-separator][id="divider-sessions"]');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const wider = await width();
    expect(wider).toBeGreaterThan(before + 20);
    await page.reload();
    await page.waitForSelector('[data-testid="session-row"]');
    expect(Math.abs((await width()) - wider)).toBeLessThan(2);
  });

  it('dark theme body text has a contrast ratio of at least 4.5, and the bundle runs under the CSP', async () => {
    await page.goto(`${h.server.url.split('#')[0]}`);
    await page.waitForSelector('[data-testid="session-row"]');
    await page.selectOption('[data-testid="theme-switch"]', 'dark');
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    const colours = await page.evaluate(() => {
      const cs = (sel: string) => getComputedStyle(document.querySelector(sel)!);
      return {
        body: [cs('body').color, cs('body').backgroundColor],
        sessions: [cs('.session-title').color, cs('.sessions').backgroundColor],
        muted: [cs('.session-meta').color, cs('.sessions').backgroundColor],
      };
    });
    for (const [name, [fg, bg]] of Object.entries(colours)) {
      const ratio = contrast(fg!, bg!);
      expect(ratio, `${name}: ${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    // Dark really is dark: the background is darker than the text.
    expect(contrast(colours.body[1]!, 'rgb(0, 0, 0)')).toBeLessThan(2);
    expect(h.pageErrors.filter((e) => /Content Security Policy|unsafe-eval/i.test(e))).toEqual([]);
  });
});
