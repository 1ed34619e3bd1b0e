/**
 * End to end, huge trees kept legible: the tree list (pi's /tree: the active branch first,
 * branch points fold, keyboard moves the selection), and the overview that never covers the leaf
 * or the zoom buttons, on the bundled demo sessions and a branched session. Chromium at 1280×800
 * against `canopy serve`, light and dark screenshots.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { DAILY_ID, dailySessionText } from './daily-session';
import { HAVE_CHROMIUM, REPO, startHarness, type Harness } from './harness';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const BIG_ID = '019c0000-0000-7000-8000-0000000b1600';

describe.skipIf(!HAVE_CHROMIUM)('tree list and overview (chromium)', () => {
  let h: Harness;
  let page: Page;
  const demoIds = [
    '2b01ac51-5404-4f8a-9409-2001e20706d5',
    '01cecbcd-0466-4622-ac7c-d655636c69fc',
    '121d4678-6ca3-4653-a4a0-2fc660407a5c',
    '8d30692b-926e-4f5d-b577-6f7fcd7cd37f',
    '2fe6b40b-de32-420a-922d-9a3fda90a08d',
  ];

  const open = async (sessionId: string) => {
    // After a reload, keys pressed before the app has drawn its list reach no handler.
    await page.waitForSelector('[data-testid="session-row"]');
    await page.keyboard.press('Control+k');
    await page.keyboard.type(sessionId);
    await page.waitForSelector(`[data-testid="palette-item"][data-kind="session"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
  };

  /** Pans the canvas (a drag on its empty background) until the leaf sits where the overview would be. */
  const dragLeafTo = async (leaf: string, _corner: 'bottom-right') => {
    const pane = (await page.locator('[data-testid="graph-canvas"]').boundingBox())!;
    const node = (await page.locator(`.react-flow__node[data-id="${leaf}"]`).boundingBox())!;
    const target = { x: pane.x + pane.width - 115, y: pane.y + pane.height - 85 };
    const start = { x: pane.x + 70, y: pane.y + 30 };
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(
      start.x + target.x - (node.x + node.width / 2),
      start.y + target.y - (node.y + node.height / 2),
      {
        steps: 8,
      },
    );
    await page.mouse.up();
  };

  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    page = h.page;
    cpSync(join(REPO, 'resources/demo'), h.sessionsDir, { recursive: true });
    const dir = join(h.sessionsDir, '--home-you-projects-daily--');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `2026-03-02T09-00-00-000Z_${DAILY_ID}.jsonl`), dailySessionText());
    // A big session (branch moves, compactions): seeded, 24 MiB, so the suite stays bounded.
    const bigDir = join(h.sessionsDir, '--home-you-projects-big--');
    mkdirSync(bigDir, { recursive: true });
    writeSessionFile(join(bigDir, `2026-03-01T08-00-00-000Z_${BIG_ID}.jsonl`), {
      targetBytes: 24 * 1024 * 1024,
      seed: 25,
      cwd: '/home/you/projects/big',
      sessionId: BIG_ID,
    });
    await page.goto(h.server.url);
    await page.evaluate(() => localStorage.setItem('canopy.minimap', 'on'));
    await page.reload();
    await page.waitForSelector('[data-testid="session-row"]');
  }, 180_000);
  afterAll(() => h?.close());

  it('the overview and the zoom buttons, docked beside the canvas, never cover a node: after opening, after fit, after a drag', async () => {
    for (const id of [...demoIds, DAILY_ID]) {
      await open(id);
      const leaf = await page.getAttribute('[data-testid="graph-panel"]', 'data-leaf-id');
      await page.waitForSelector(`.react-flow__node[data-id="${leaf}"]`);
      for (const step of ['open', 'fit', 'leaf dragged to the bottom-right corner'] as const) {
        if (step === 'fit') await page.click('[data-testid="canvas-fit"]');
        if (step !== 'open' && step !== 'fit') await dragLeafTo(leaf!, 'bottom-right');
        await page.waitForTimeout(400);
        const ov = (await page.locator('[data-testid="graph-overview"]').boundingBox())!;
        const zoom = (await page.locator('.graph-zoom').boundingBox())!;
        // What shows of each node: its box clipped to the pane (react-flow hides what lies outside).
        const boxes = await page.$$eval('.react-flow__node', (els) => {
          const p = document.querySelector('[data-testid="graph-canvas"]')!.getBoundingClientRect();
          return els.flatMap((e) => {
            const r = e.getBoundingClientRect();
            const x = Math.max(r.left, p.left);
            const y = Math.max(r.top, p.top);
            const width = Math.min(r.right, p.right) - x;
            const height = Math.min(r.bottom, p.bottom) - y;
            return width > 0 && height > 0 ? [{ id: (e as HTMLElement).dataset.id, x, y, width, height }] : [];
          });
        });
        expect(boxes.length, `${id} ${step}`).toBeGreaterThan(0);
        for (const b of boxes) {
          expect(overlap(ov, b), `${id} ${step}: overview over ${b.id}`).toBe(false);
          expect(overlap(zoom, b), `${id} ${step}: zoom buttons over ${b.id}`).toBe(false);
        }
      }
    }
    await h.shot('overview-placed-light');
  });

  it('the tree list shows the active branch first, folds a branch point, and moves the selection by keyboard', async () => {
    await open(DAILY_ID);
    await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector('[data-testid="tree-list"]');
    const ids = () =>
      page.$$eval('[data-testid="tree-row"]', (els) =>
        els
          .map((e) => ({ id: e.getAttribute('data-entry-id')!, y: e.getBoundingClientRect().top }))
          .sort((a, b) => a.y - b.y)
          .map((e) => e.id),
      );
    expect(await ids()).toEqual(['u1', 'a1', 't1', 'a2', 'u2', 'a3', 'c1', 'u4', 'a4', 'x1', 'x2']);
    await h.shot('tree-list-light');
    // Keyboard: select u2, fold it with Left, unfold with Right.
    await page.click('[data-testid="tree-row"][data-entry-id="u2"] .tree-preview');
    await page.waitForSelector('[data-testid="inspector"][data-entry-id="u2"]');
    await page.keyboard.press('ArrowLeft');
    expect(await ids()).toEqual(['u1', 'a1', 't1', 'a2', 'u2']);
    expect(await page.textContent('[data-testid="tree-row"][data-entry-id="u2"]')).toContain('+6 entries');
    await page.keyboard.press('ArrowRight');
    expect(await ids()).toHaveLength(11);
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[data-testid="inspector"][data-entry-id="a3"]');
    await page.evaluate(() => localStorage.setItem('canopy.theme', 'dark'));
    await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector('[data-testid="graph-canvas"]');
  });

  it('looks right in the dark theme', async () => {
    await page.reload();
    await open(DAILY_ID);
    await page.click('[data-testid="tab-transcript"]');
    await page.waitForSelector('[data-testid="transcript-row"][data-entry-id="a4"] .transcript-body');
    await page.waitForTimeout(300);
    await h.shot('transcript-dark');
    await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector('[data-testid="tree-list"]');
    await h.shot('tree-list-dark');
    await page.click('[data-testid="tree-list-toggle"]');
    // The flat list names each row's project, and neither its time nor its date is clipped.
    await page.click('[data-testid="group-by-project"]');
    await page.waitForSelector('[data-testid="session-row"] .session-cwd');
    await h.shot('sessions-flat-dark');
    const clipped = await page.$$eval('[data-testid="session-row"]', (rows) =>
      rows.flatMap((row) => {
        const meta = row.querySelector('.session-meta')!;
        const box = meta.getBoundingClientRect();
        const cwd = meta.querySelector('.session-cwd')!;
        const date = meta.querySelector('.created')!;
        const d = date.getBoundingClientRect();
        return date.scrollWidth > date.clientWidth + 1 || d.right > box.right + 1 || cwd.clientWidth < 20
          ? [row.getAttribute('data-session-id')]
          : [];
      }),
    );
    expect(clipped).toEqual([]);
    await page.click('[data-testid="group-by-project"]');
    expect(h.pageErrors).toEqual([]);
  });
  it('a big session: the overview shows density with the path and tips over it, the tree list lists the active branch first and folds', async () => {
    await page.evaluate(() => localStorage.setItem('canopy.theme', 'light'));
    await page.reload();
    await open(BIG_ID);
    await page.waitForSelector('[data-testid="overview-canvas"]', { timeout: 60_000 });
    await page.click('[data-testid="canvas-fit"]');
    await page.waitForTimeout(500);
    await h.shot('overview-big-light');
    // The transcript opens on the leaf with bodies read for the rows in view only.
    const t0 = Date.now();
    await page.click('[data-testid="tab-transcript"]');
    await page.waitForSelector('[data-testid="transcript-row"] .transcript-body', { timeout: 30_000 });
    const asked = await page.$$eval('[data-testid="transcript-row"]', (els) => els.length);
    console.log(`[e2e] big session transcript: first body after ${Date.now() - t0} ms, ${asked} rows drawn`);
    expect(asked).toBeLessThan(40);
    await h.shot('transcript-big-light');
    await page.click('[data-testid="tab-entry"]');
    await page.click('[data-testid="tree-list-toggle"]');
    await page.waitForSelector('[data-testid="tree-row"]');
    // It opens at the leaf; Home goes to the top.
    await page.focus('[data-testid="tree-list"]');
    await page.keyboard.press('Home');
    await page.waitForTimeout(200);
    // The first rows are the active branch (pre-order, the leaf's branch first).
    const first = await page.$$eval('[data-testid="tree-row"]', (els) =>
      els
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .slice(0, 20)
        .map((e) => e.classList.contains('on-path')),
    );
    expect(first.every(Boolean)).toBe(true);
    const folds = page.locator('[data-testid="tree-fold"]');
    expect(await folds.count()).toBeGreaterThan(0);
    const before = await page.$$eval('[data-testid="tree-row"]', (els) => els.length);
    await folds.first().click();
    await page.waitForSelector('[data-testid="tree-row"] >> text=/\\+[\\d,]+ entr/');
    await h.shot('tree-list-big-light');
    expect(before).toBeGreaterThan(0);
    await page.click('[data-testid="tree-list-toggle"]');
  });
});
