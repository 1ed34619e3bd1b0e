// The graph at real size (issue 36), a case of bench/render.mjs: the 100 MiB session at 1280×800 in
// a fresh page. Fit (Shift+F, keyboard): nodes drawn, tips and compactions accounted for on screen,
// labels ≥ 11 px, nodes under the overview (bench/graph-facts.mjs). Then frame times
// (requestAnimationFrame deltas) while zooming by wheel (levels change on the way) and panning.
import { fitFacts } from './graph-facts.mjs';

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const FRAMES = () => {
  window.__frames = [];
  const tick = (t) => {
    if (!window.__frames) return;
    window.__frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};
const STOP = () => {
  const f = window.__frames;
  window.__frames = null;
  return f.slice(1).map((t, i) => t - f[i]);
};

/** Pans by dragging the pane once round an ellipse from (x0, y0), in 60 steps (the render cases' pan). */
export async function dragAround(page, x0, y0, rx) {
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) {
    const a = (i / 60) * Math.PI * 2;
    await page.mouse.move(x0 + Math.sin(a) * rx, y0 + (1 - Math.cos(a)) * 150);
  }
  await page.mouse.up();
  await page.waitForTimeout(100);
}

/** @param {import('playwright-core').BrowserContext} context */
export async function measureGraph(context, url, sessionId) {
  const page = await context.newPage();
  const u = new URL(url);
  u.hash = `#/session/${encodeURIComponent(sessionId)}`;
  await page.goto(u.toString());
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"] .react-flow__node`, {
    timeout: 120_000,
  });
  await page.waitForTimeout(500);
  await page.focus('[data-testid="graph-canvas"]');
  await page.keyboard.press('Shift+F');
  await page.waitForSelector('[data-testid="graph-canvas"][data-level="0"]', { timeout: 30_000 });
  await page.waitForTimeout(600);
  const fit = await fitFacts(page);
  // RENDER_SHOT=path.png: what fit drew, to look at.
  if (process.env.RENDER_SHOT) await page.screenshot({ path: process.env.RENDER_SHOT });

  const pane = await (await page.$('[data-testid="graph-canvas"]')).boundingBox();
  const x0 = pane.x + pane.width / 3;
  const y0 = pane.y + pane.height / 2;
  await page.mouse.move(x0, y0);
  await page.evaluate(FRAMES);
  for (let i = 0; i < 16; i++) {
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(400); // the level change after the wheel rests
  const level = Number(await page.getAttribute('[data-testid="graph-canvas"]', 'data-level'));
  for (let i = 0; i < 16; i++) {
    await page.mouse.wheel(0, 100);
    await page.waitForTimeout(40);
  }
  await page.waitForTimeout(400);
  const zoom = await page.evaluate(STOP);
  await page.evaluate(FRAMES);
  await dragAround(page, x0, y0, 200);
  const pan = await page.evaluate(STOP);
  await page.close();
  return {
    fit,
    zoomedToLevel: level,
    zoomP95: pct(zoom, 95),
    panP95: pct(pan, 95),
    maxFrame: Math.max(...zoom, ...pan),
  };
}
