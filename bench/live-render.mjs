// Live at real size (a step of `npm run bench`, see live-render-rows.ts): `canopy serve` watching a root
// that holds a copy of the 100 MiB session, open in Chromium; 40 pi lines appended at 4 per second
// (copies of the file's own message entries, each with a new id, parentId = the leaf, a new time).
//   node bench/live-render.mjs ROOT SESSION_ID FILE
// Per append: write → its node drawn and followed (the inspector shows it) in the page; the bytes the
// event stream carried (session.appended + session.contextChanged) and the API answers the page got
// meanwhile; serve's CPU while appended to against idle. Prints one JSON line; `{ ok: false, skipped }`
// without Chromium.
import { appendFileSync, closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/e2e/chromium-env.mjs';
import { chromiumOrSkip, pct, startServe } from './serve-child.mjs';

const [root, sessionId, file] = process.argv.slice(2);
const APPENDS = Number(process.env.LIVE_APPENDS ?? 40);
const GAP_MS = 250;
const now = () => performance.timeOrigin + performance.now();
/** CPU seconds the process used so far (Linux: /proc). */
function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** The events the server sends a client, counted in bytes per event name. */
async function listen(url, counts) {
  const u = new URL(url);
  const token = u.searchParams.get('token');
  const res = await fetch(`${u.origin}/api/events`, { headers: { 'x-canopy-token': token } });
  const reader = res.body.getReader();
  let text = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += Buffer.from(value).toString('latin1');
      let end;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, end + 2);
        text = text.slice(end + 2);
        const name = /^event: (.+)$/m.exec(block)?.[1];
        if (!name) continue;
        const ids = name === 'session.appended' ? (JSON.parse(block.split('data: ')[1]).graph?.entries.ids ?? []) : [];
        counts.push({ name, bytes: block.length, at: now(), ids, head: process.env.LIVE_DEBUG ? block : '' });
      }
    }
  })();
  return () => reader.cancel();
}

/** Message lines of the file's end, to append again as new entries. */
function templates() {
  const size = statSync(file).size;
  const n = Math.min(size, 4 * 1024 * 1024);
  const buf = Buffer.alloc(n);
  const fd = openSync(file, 'r');
  readSync(fd, buf, 0, n, size - n);
  closeSync(fd);
  const entries = buf
    .toString('utf8')
    .split('\n')
    .slice(1, -1)
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return null;
      }
    })
    .filter((e) => e && typeof e.id === 'string');
  const out = entries.filter((e) => e.type === 'message' && JSON.stringify(e).length < 64 * 1024);
  out.last = entries.at(-1).id;
  return out;
}

async function main() {
  const chromium = await chromiumOrSkip();
  if (!chromium) return;
  const lines = templates();
  const lastId = lines.last;
  const { url, child } = await startServe(root);
  const events = [];
  const stopListening = await listen(url, events);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const answers = [];
    page.on('response', async (r) => {
      const m = /\/api\/([\w.]+)$/.exec(new URL(r.url()).pathname);
      if (!m || m[1] === 'events') return;
      const body = await r.body().catch(() => Buffer.alloc(0));
      answers.push({ channel: m[1], bytes: body.length, at: now() });
    });
    const u = new URL(url);
    u.hash = `#/session/${encodeURIComponent(sessionId)}`;
    await page.goto(u.toString());
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"] .react-flow__node`, {
      timeout: 180_000,
    });
    // Settled: the flags pass and the context are in (a first open reads the whole file).
    await page.waitForFunction(() => !document.body.textContent.includes('not ready yet'), null, { timeout: 300_000 });
    await page.waitForTimeout(3000);
    await page.evaluate(() => {
      const w = window;
      w.__live = { want: [], seen: {} };
      const tick = () => {
        // Drawn and followed: the inspector shows it, or a later append that came in the same update.
        const followed = document.querySelector('[data-testid="inspector-entry-id"]')?.textContent;
        const at = w.__live.want.indexOf(followed);
        if (at >= 0 && document.querySelector(`.react-flow__node[data-id="${followed}"]`)) {
          for (const id of w.__live.want.slice(0, at + 1))
            w.__live.seen[id] ??= performance.timeOrigin + performance.now();
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    // The leaf: the file's last entry (pi's current leaf), as the lines read at the start show it.
    let parent = lastId;

    const idle0 = cpuSeconds(child.pid);
    const i0 = now();
    await new Promise((r) => setTimeout(r, 5000));
    const idleCores = (cpuSeconds(child.pid) - idle0) / ((now() - i0) / 1000);

    const writes = [];
    const fromEvent = events.length;
    const fromAnswer = answers.length;
    const busy0 = cpuSeconds(child.pid);
    const b0 = now();
    for (let i = 0; i < APPENDS; i++) {
      const t = lines[i % lines.length];
      const id = randomBytes(4).toString('hex');
      const line = `${JSON.stringify({ ...t, id, parentId: parent, timestamp: new Date().toISOString() })}\n`;
      await page.evaluate((x) => window.__live.want.push(x), id);
      appendFileSync(file, line);
      writes.push({ id, at: now(), bytes: Buffer.byteLength(line) });
      parent = id;
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    const deadline = now() + 20_000;
    let seen = {};
    while (now() < deadline) {
      seen = await page.evaluate(() => window.__live.seen);
      if (writes.every((w) => seen[w.id])) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const busyCores = (cpuSeconds(child.pid) - busy0) / ((now() - b0) / 1000);
    const lat = writes.filter((w) => seen[w.id]).map((w) => seen[w.id] - w.at);
    const sent = events.slice(fromEvent).filter((e) => e.name.startsWith('session.'));
    const appendedBytes = writes.reduce((n, w) => n + w.bytes, 0);
    const sentBytes = sent.reduce((n, e) => n + e.bytes, 0);
    // Write → the event at a client of the stream: main's part of the latency.
    const arrived = new Map();
    for (const e of sent) for (const id of e.ids) if (!arrived.has(id)) arrived.set(id, e.at);
    const server = writes.filter((w) => arrived.has(w.id)).map((w) => arrived.get(w.id) - w.at);
    const got = answers.slice(fromAnswer);
    const byChannel = {};
    for (const a of got) byChannel[a.channel] = (byChannel[a.channel] ?? 0) + 1;
    console.log(
      JSON.stringify({
        ok: true,
        appends: writes.length,
        missing: writes.length - lat.length,
        p50: pct(lat, 50),
        p95: pct(lat, 95),
        max: Math.max(...lat),
        serverP50: pct(server, 50),
        serverP95: pct(server, 95),
        events: sent.filter((e) => e.name === 'session.appended').length,
        appendedBytes,
        eventBytes: sentBytes,
        eventBytesMax: Math.max(0, ...sent.map((e) => e.bytes)),
        answerBytes: got.reduce((n, a) => n + a.bytes, 0),
        answers: byChannel,
        idleCores,
        busyCores,
        ...(process.env.LIVE_DEBUG ? { debug: { sent: sent.map((e) => e.head), seen, writes, answers: got } } : {}),
      }),
    );
  } finally {
    stopListening();
    await browser.close();
    child.kill();
  }
}

main().catch((err) => {
  console.log(JSON.stringify({ ok: false, error: String(err?.stack ?? err).slice(0, 400) }));
  process.exitCode = 1;
});
