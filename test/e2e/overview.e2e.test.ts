/**
 * End to end: the graph's overview (the structural minimap) in Chromium. A session with three
 * branches is uploaded; a tip mark, found by its colour on the overview's canvas, is clicked and the
 * entry it ends in is selected, inspected and drawn in view. Screenshots of the canvas in the dark
 * theme at 1280×800 go to test-output/e2e. Skipped, with the reason printed, without Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, startHarness, type Harness } from './harness';

const line = (v: unknown) => JSON.stringify(v);
const ID = '019c0000-0000-7000-8000-00000000f1a5';
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const ts = () => new Date((clock += 1000)).toISOString();
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const user = (id: string, parentId: string | null, text: string) =>
  line({ type: 'message', id, parentId, timestamp: ts(), message: { role: 'user', content: text, timestamp: 1 } });
const assistant = (id: string, parentId: string, text: string) =>
  line({
    type: 'message',
    id,
    parentId,
    timestamp: ts(),
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      provider: 'p',
      model: 'm',
      api: 'x',
      stopReason: 'stop',
      timestamp: 2,
      usage,
    },
  });

/** u0 → r0, then three branches of 12 messages each; the last one written (branch c) holds the leaf. */
function sessionText(): string {
  const out = [
    line({ type: 'session', version: 3, id: ID, timestamp: ts(), cwd: '/overview' }),
    user('u0', null, 'plan the work'),
    assistant('r0', 'u0', 'three ways to go'),
  ];
  for (const b of ['a', 'b', 'c']) {
    let parent = 'r0';
    for (let i = 0; i < 12; i++) {
      const id = `${b}${i}`;
      out.push(
        i % 2 === 0 ? user(id, parent, `branch ${b} question ${i}`) : assistant(id, parent, `branch ${b} answer ${i}`),
      );
      parent = id;
    }
    if (b === 'b')
      out.push(
        line({
          type: 'compaction',
          id: 'cb',
          parentId: parent,
          timestamp: ts(),
          summary: 'branch b so far',
          firstKeptEntryId: 'b10',
          tokensBefore: 1000,
        }),
        user('b12', 'cb', 'branch b after the summary'),
      );
  }
  return `${out.join('\n')}\n`;
}

if (!HAVE_CHROMIUM) console.warn('[skipped] overview e2e: no Chromium at /usr/bin/chromium (apt-get install chromium)');

describe.skipIf(!HAVE_CHROMIUM)('the graph overview', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ perWriter: 2 });
    await h.page.goto(h.server.url);
    await h.page.evaluate(() => {
      localStorage.setItem('canopy.minimap', 'on');
      localStorage.setItem('canopy.theme', 'dark');
    });
    await h.page.reload();
    await h.page.waitForSelector('[data-testid="session-row"]');
    await h.page.setInputFiles('[data-testid="open-input"]', {
      name: 'branches.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(sessionText()),
    });
    await h.page.waitForSelector(
      `[data-testid="graph-panel"][data-session-id="${ID}"] [data-testid="overview-canvas"]`,
    );
  }, 180_000);
  afterAll(() => h?.close());

  it('draws the tips on its canvas, and a click on a tip mark selects and shows that tip', async () => {
    const page = h.page;
    expect(await page.getAttribute('[data-testid="graph-overview"]', 'data-tips')).toBe('3');
    await page.waitForTimeout(300);
    await h.shot('overview-dark', page);
    // The tip marks' pixels (the off-path tips; the leaf's tip is drawn over in the path's colour).
    const spots = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="overview-canvas"]')!;
      const probe = document.createElement('span');
      probe.style.color = 'var(--ov-tip)';
      canvas.parentElement!.appendChild(probe);
      const [r, g, b] = getComputedStyle(probe).color.match(/\d+/g)!.map(Number);
      probe.remove();
      const ctx = canvas.getContext('2d')!;
      const { width, height, data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const hits: Array<[number, number]> = [];
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const k = 4 * (y * width + x);
          if (
            Math.abs(data[k]! - r!) + Math.abs(data[k + 1]! - g!) + Math.abs(data[k + 2]! - b!) < 12 &&
            data[k + 3]! > 200
          )
            hits.push([x / scale, y / scale]);
        }
      // Group into marks a few pixels across.
      const marks: Array<{ x: number; y: number; n: number }> = [];
      for (const [x, y] of hits) {
        const m = marks.find((m) => Math.abs(m.x / m.n - x) < 5 && Math.abs(m.y / m.n - y) < 5);
        if (m) Object.assign(m, { x: m.x + x, y: m.y + y, n: m.n + 1 });
        else marks.push({ x, y, n: 1 });
      }
      const box = canvas.getBoundingClientRect();
      return marks.map((m) => ({ x: box.left + m.x / m.n, y: box.top + m.y / m.n }));
    });
    // Both off-path tips fork off r0: one fork mark, whose tip dot picks one of them.
    expect(spots.length).toBeGreaterThanOrEqual(1);
    await page.mouse.move(spots[0]!.x, spots[0]!.y);
    const hovered = await page.getAttribute('[data-testid="overview-hover"]', 'data-entry-id');
    expect(['a11', 'b12']).toContain(hovered);
    await page.mouse.click(spots[0]!.x, spots[0]!.y);
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${hovered}"]`);
    // Drawn, and inside the canvas: it was scrolled into view.
    const canvasBox = (await page.locator('[data-testid="graph-canvas"]').boundingBox())!;
    const nodeBox = (await page.locator(`.react-flow__node[data-id="${hovered}"]`).boundingBox())!;
    await page.waitForTimeout(400);
    const settled = (await page.locator(`.react-flow__node[data-id="${hovered}"]`).boundingBox())!;
    expect(nodeBox).toBeTruthy();
    expect(settled.x).toBeGreaterThanOrEqual(canvasBox.x);
    expect(settled.x + settled.width).toBeLessThanOrEqual(canvasBox.x + canvasBox.width);
    expect(settled.y).toBeGreaterThanOrEqual(canvasBox.y);
    expect(settled.y + settled.height).toBeLessThanOrEqual(canvasBox.y + canvasBox.height);
    await h.shot('overview-dark-jumped', page);
  });

  it('] walks to the next tip and the picker lists every tip', async () => {
    const page = h.page;
    await page.focus('[data-testid="graph-canvas"]');
    const before = await page.getAttribute('[data-testid="inspector"]', 'data-entry-id');
    await page.keyboard.press(']');
    // The inspector names the entry once its detail arrived (no id while it loads).
    await page.waitForFunction((b) => {
      const id = document.querySelector('[data-testid="inspector"]')?.getAttribute('data-entry-id');
      return !!id && id !== b;
    }, before);
    const after = await page.getAttribute('[data-testid="inspector"]', 'data-entry-id');
    expect(['c11', 'a11', 'b12']).toContain(after);
    await page.keyboard.press('Control+k');
    await page.fill('[data-testid="palette-input"]', 'branch tip');
    await page.click('[data-testid="palette-item"][data-id="graph.goToTip"]');
    await page.waitForSelector('[data-testid="tip-item"]');
    const ids = await page.$$eval('[data-testid="tip-item"]', (els) => els.map((e) => e.getAttribute('data-id')));
    expect(ids).toEqual(['c11', 'a11', 'b12']);
    await page.keyboard.press('Escape');
    expect(h.pageErrors).toEqual([]);
  });
});
