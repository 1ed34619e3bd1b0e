// Rendering benchmark (a step of `npm run bench`, see run.ts): the real renderer in Chromium against
// `canopy serve` on a root holding a large and a small generated session.
//   node bench/render.mjs ROOT LARGE_ID SMALL_ID [CLICK_ID]
// Per case (small, large, large with ?naive=1 = every entry drawn, no chain collapsing), in a fresh
// page: first frame (ms from navigation start to the first animation frame whose DOM holds graph
// nodes), frame times while panning by mouse drag (requestAnimationFrame deltas), JS heap after a
// forced GC (CDP Runtime.getHeapUsage). With CLICK_ID (the 100 MiB session): click its sidebar row,
// as a user does, and time the first graph frame and the previews of the nodes in view from the click;
// and the graph at fit, zooming and panning on it (bench/render-graph.mjs).
// Prints one JSON line; `{ ok: false, skipped }` without Chromium.
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/chromium-env.mjs';
import { chromiumOrSkip, pct, startServe } from './serve-child.mjs';
import { dragAround, measureGraph } from './render-graph.mjs';

const [root, largeId, smallId, clickId] = process.argv.slice(2);
const RUNS = Number(process.env.RENDER_RUNS ?? 3);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Installed before any page script: records the first frame that shows graph nodes, and frame deltas on demand.
const PROBE = () => {
  const w = window;
  w.__bench = { firstFrame: null, frames: null };
  const tick = (t) => {
    if (w.__bench.firstFrame === null && document.querySelector('.react-flow__node'))
      w.__bench.firstFrame = performance.now();
    if (w.__bench.frames) w.__bench.frames.push(t);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

async function measure(context, url, sessionId, naive) {
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const u = new URL(url);
  if (naive) u.searchParams.set('naive', '1');
  u.hash = `#/session/${encodeURIComponent(sessionId)}`;
  await page.goto(u.toString());
  await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"] .react-flow__node`, {
    timeout: 120_000,
  });
  await page.waitForFunction(() => window.__bench.firstFrame !== null, null, { timeout: 120_000 });
  const firstFrame = await page.evaluate(() => window.__bench.firstFrame);
  await page.waitForTimeout(500);
  const nodes = await page.$$eval('.react-flow__node', (els) => els.length);
  // When the graph's data arrived (the rest of the first frame is the renderer's own work).
  const openMs = await page.evaluate(() => {
    const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/session.open'));
    return r.length > 0 ? r[r.length - 1].responseEnd : null;
  });

  // Pan: drag the pane in small steps for about a second, recording every frame's start time.
  const pane = await page.$('.react-flow__pane');
  const box = await pane.boundingBox();
  const x0 = box.x + box.width / 2;
  const y0 = box.y + box.height / 2;
  await page.mouse.move(x0, y0);
  await page.evaluate(() => {
    window.__bench.frames = [];
  });
  await dragAround(page, x0, y0, 300);
  const stamps = await page.evaluate(() => {
    const f = window.__bench.frames;
    window.__bench.frames = null;
    return f;
  });
  const deltas = stamps.slice(1).map((t, i) => t - stamps[i]);

  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  await page.close();
  return {
    firstFrame,
    openMs,
    nodes,
    p95: pct(deltas, 95),
    maxFrame: Math.max(...deltas),
    frames: deltas.length,
    heapMB: heap.usedSize / 1024 / 1024,
  };
}

// Installed before any page script: from the click on a sidebar row, the first frame whose DOM holds
// graph nodes of that session, and the first whose drawn nodes all have their previews.
const CLICK_PROBE = () => {
  const w = window;
  w.__click = { at: null, firstNode: null, previews: null };
  const tick = () => {
    const c = w.__click;
    if (c.at !== null) {
      const now = performance.now();
      const nodes = document.querySelectorAll(
        `[data-testid="graph-panel"][data-session-id="${c.sessionId}"] .react-flow__node`,
      );
      if (c.firstNode === null && nodes.length > 0) c.firstNode = now;
      if (c.firstNode !== null && c.previews === null && !document.querySelector('[data-testid="preview-loading"]'))
        c.previews = now;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

/** Click → first graph frame (and → previews) of one session, in a fresh page on the app's start screen. */
async function measureClick(context, url, sessionId) {
  const page = await context.newPage();
  await page.addInitScript(CLICK_PROBE);
  const u = new URL(url);
  u.searchParams.set('marks', '1');
  await page.goto(u.toString());
  const row = `[data-testid="session-row"][data-session-id="${sessionId}"]`;
  await page.waitForSelector(row, { timeout: 60_000 });
  // Let the start screen settle (listing, summaries) so the click measures the open alone.
  await page.waitForTimeout(1500);
  await page.evaluate((id) => Object.assign(window.__click, { sessionId: id }), sessionId);
  const box = await (await page.$(row)).boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // The click time is taken in the page, on the mousedown that starts it.
  await page.evaluate(() =>
    window.addEventListener(
      'mousedown',
      () => {
        window.__click.at = performance.now();
      },
      { once: true, capture: true },
    ),
  );
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForFunction(() => window.__click.previews !== null, null, { timeout: 120_000 });
  const c = await page.evaluate(() => window.__click);
  const net = await page.evaluate(() => {
    const r = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/session.open'));
    const e = r[r.length - 1];
    return e
      ? {
          start: e.startTime,
          firstByte: e.responseStart,
          end: e.responseEnd,
          bytes: e.encodedBodySize,
          decoded: e.decodedBodySize,
        }
      : null;
  });
  const marks = await page.evaluate(() =>
    Object.fromEntries(
      performance
        .getEntriesByType('measure')
        .filter((m) => m.name.startsWith('canopy:'))
        .map((m) => [m.name, m.duration]),
    ),
  );
  const nodes = await page.$$eval('.react-flow__node', (els) => els.length);
  await page.close();
  return {
    firstNode: c.firstNode - c.at,
    previews: c.previews - c.at,
    // session.open: from the click to the request, its answer (server + transfer), and the renderer's work after it.
    toRequest: net ? net.start - c.at : null,
    answer: net ? net.end - net.start : null,
    waitFirstByte: net ? net.firstByte - net.start : null,
    afterAnswer: net ? c.firstNode - net.end : null,
    answerMB: net ? net.decoded / 1024 / 1024 : null,
    marks,
    nodes,
  };
}

async function main() {
  const chromium = await chromiumOrSkip();
  if (!chromium) return;
  const { url, child } = await startServe(root, ['--no-watch']);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc'],
  });
  try {
    const out = {};
    const cases = { small: [smallId, false], large: [largeId, false], naive: [largeId, true] };
    // RENDER_ONLY=click (a comma list of cases): the others are skipped, for profiling one.
    const only = process.env.RENDER_ONLY?.split(',');
    for (const [name, [id, naive]] of Object.entries(cases)) {
      if (only && !only.includes(name)) continue;
      const runs = [];
      for (let r = 0; r < RUNS; r++) {
        // A fresh context per run: no cached bundle or warm state between cases.
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        runs.push(await measure(context, url, id, naive));
        // RENDER_VERBOSE=1: every run on stderr (the first run of a case opens the file cold).
        if (process.env.RENDER_VERBOSE) console.error(name, r, JSON.stringify(runs[runs.length - 1]));
        await context.close();
      }
      out[name] = {
        firstFrame: median(runs.map((x) => x.firstFrame)),
        openMs: median(runs.map((x) => x.openMs ?? 0)),
        p95: median(runs.map((x) => x.p95)),
        maxFrame: Math.max(...runs.map((x) => x.maxFrame)),
        heapMB: median(runs.map((x) => x.heapMB)),
        nodes: runs[0].nodes,
        frames: median(runs.map((x) => x.frames)),
      };
    }
    if (clickId && (!only || only.includes('click'))) {
      const runs = [];
      for (let r = 0; r < RUNS; r++) {
        // A fresh server per run too: the click opens a file Canopy has not read yet (the OS page cache is warm).
        const fresh = await startServe(root, ['--no-watch']);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          runs.push(await measureClick(context, fresh.url, clickId));
        } finally {
          await context.close();
          fresh.child.kill('SIGTERM');
        }
        if (process.env.RENDER_VERBOSE) console.error('click', r, JSON.stringify(runs[runs.length - 1]));
      }
      // The median run by first frame, whole (its parts add up).
      runs.sort((a, b) => a.firstNode - b.firstNode);
      out.click = { ...runs[Math.floor(runs.length / 2)], runs: runs.map((x) => Math.round(x.firstNode)) };
    }
    if (clickId && (!only || only.includes('graph'))) {
      // Fit, zoom and pan on the 100 MiB session (bench/render-graph.mjs); one run, its frames many.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        out.graph = await measureGraph(context, url, clickId);
      } finally {
        await context.close();
      }
      if (process.env.RENDER_VERBOSE) console.error('graph', JSON.stringify(out.graph));
    }
    console.log(JSON.stringify({ ok: true, ...out }));
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.log(JSON.stringify({ ok: false, error: String(err?.message ?? err).slice(0, 300) }));
  process.exitCode = 1;
});
