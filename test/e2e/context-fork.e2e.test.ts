/**
 * End to end, "what reaches the model" and forking from the graph: `canopy serve` (in process,
 * watching its root) on the generated corpus, driven by Chromium. The context view and the graph
 * shading are compared with electron/core on the same files; a fork made through the UI is
 * compared with `canopy fork` (runCli) on the same source; a refused target writes nothing; a
 * line appended by "pi" shows up live. Screenshots (light and dark) go to test-output/e2e/.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli';
import {
  buildContextView,
  parseSessionText,
  readSession,
  readSessionDetailed,
  type ParsedSession,
} from '../../electron/core';
import type { EntryNodeDto, SessionGraphDto, SessionListDto, SessionRowDto } from '../../electron/shared/dto';
import type { CorpusFile } from '../fixtures/corpus/build';
import { resumeCommandIn } from '../../electron/shared/resume-command';
import { deepLink, HAVE_CHROMIUM, sessionRowInView, startHarness, type Harness } from './harness';
import { graphFromWire, type SessionGraphWireDto } from '../../electron/shared/entry-nodes';

type Json = Record<string, any>;

function hashTree(dir: string): string {
  const hash = createHash('sha256');
  const stack = [dir];
  const files: string[] = [];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) stack.push(p);
      else files.push(p);
    }
  }
  for (const f of files.sort()) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

const readJsonl = (path: string): Json[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Json);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: (c: string) => (err += c) },
  });
  return { code, out, err };
}

/** Ids on the wire are compared after mapping fresh ids (CA's re-created labels) position by position. */
function compareForkFiles(ui: Json[], ours: Json[], sourceIds: Set<string>): void {
  const [uiHeader, ...uiEntries] = ui;
  const [cliHeader, ...cliEntries] = ours;
  const strip = (h: Json) => {
    const { id: _id, timestamp: _ts, ...rest } = h;
    return rest;
  };
  expect(strip(uiHeader!)).toEqual(strip(cliHeader!));
  expect(uiEntries.map((e) => e.type)).toEqual(cliEntries.map((e) => e.type));
  const fresh = new Map<string, string>();
  uiEntries.forEach((e, i) => {
    const c = cliEntries[i]!;
    if (sourceIds.has(e.id)) expect(e.id).toBe(c.id);
    else {
      expect(sourceIds.has(c.id)).toBe(false);
      fresh.set(c.id, e.id);
    }
  });
  const mapped = cliEntries.map((e) => {
    const out: Json = { ...e, id: fresh.get(e.id) ?? e.id };
    if (typeof e.parentId === 'string') out.parentId = fresh.get(e.parentId) ?? e.parentId;
    return out;
  });
  expect(uiEntries).toEqual(mapped);
}

describe.skipIf(!HAVE_CHROMIUM)('context view and forks in Chromium', () => {
  let h: Harness;
  let page: Page;
  let list: SessionListDto;
  const rowByPath = new Map<string, SessionRowDto>();
  const parsed = new Map<string, ParsedSession>();

  const rowOf = (file: CorpusFile): SessionRowDto | undefined => rowByPath.get(resolve(file.path));
  const session = (file: CorpusFile): ParsedSession => {
    let s = parsed.get(file.path);
    if (!s) parsed.set(file.path, (s = parseSessionText(readFileSync(file.path, 'utf8'))));
    return s;
  };
  const graphOf = async (sessionId: string): Promise<SessionGraphDto> =>
    graphFromWire(await h.call<SessionGraphWireDto>('session.open', { sessionId }));
  /** Files every reader agrees on: format 3 and no parent cycle (v1 ids are drawn at random when read). */
  const usable = (f: CorpusFile) =>
    f.format === 3 && !f.cyclic && rowOf(f) !== undefined && !f.features.includes('huge-line');

  async function openContext(sessionId: string, entryId?: string) {
    await page.goto(deepLink(h.origin, sessionId, entryId));
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${sessionId}"]`);
    await page.click('[data-testid="tab-context"]');
    await page.waitForSelector('[data-testid="context-panel"]');
  }

  const contextIdsOnScreen = () =>
    page.$$eval('[data-testid="context-entry"]', (els) =>
      els.map((el) => [(el as HTMLElement).dataset.entryId!, (el as HTMLElement).dataset.state!] as const),
    );

  beforeAll(async () => {
    h = await startHarness({ watch: true });
    page = h.page;
    list = await h.call<SessionListDto>('sessions.list', {});
    for (const row of list.sessions) rowByPath.set(resolve(row.path), row);
    await page.goto(h.server.url);
    await page.waitForSelector('[data-testid="session-row"]');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('lists the context entries in the order readSession gives, for both profiles and every kind of file', async () => {
    const wanted = [
      'compaction',
      'compaction-nested',
      'compaction-other-branch',
      'context-edit',
      'branches',
      'bash',
      'system',
      'tree-summary',
      'compaction-empty-tail',
      'settings',
      'custom',
      'labels',
    ];
    const sample: CorpusFile[] = [];
    for (const feature of wanted) {
      for (const writer of ['ca', 'h3'] as const) {
        const f = h.corpus.find(
          (c) => c.writer === writer && c.features.includes(feature) && usable(c) && !sample.includes(c),
        );
        if (f) sample.push(f);
      }
    }
    sample.push(...h.corpus.filter((c) => c.writer === 'pi-fork' && usable(c)).slice(0, 2));
    expect(sample.length).toBeGreaterThanOrEqual(10);
    expect(sample.some((f) => f.writer === 'ca') && sample.some((f) => f.writer === 'h3')).toBe(true);

    let compared = 0;
    for (const file of sample) {
      const row = rowOf(file)!;
      const s = session(file);
      const reading = readSession(s);
      const view = buildContextView(s, readSessionDetailed(s));
      const states = new Map(view.entries.map((e) => [e.id, e.state]));
      await openContext(row.sessionId);
      await page.waitForSelector(`[data-testid="context-panel"][data-leaf-id="${reading.leafId ?? ''}"]`);
      const shown = await contextIdsOnScreen();
      expect(
        shown.map(([id]) => id),
        file.name,
      ).toEqual(reading.contextEntryIds);
      for (const [id, state] of shown) expect(state, `${file.name} ${id}`).toBe(states.get(id));
      // The total the panel shows is the core's estimate.
      expect(await page.textContent('[data-testid="context-total"]')).toContain(
        view.tokens.total.toLocaleString('en-US'),
      );
      compared++;
    }
    console.log(`[e2e] context entry ids equal readSession().contextEntryIds on ${compared} files`);
    await h.shot('10-context-view');
  });

  it('shows the context at a what-if leaf on another branch, as readSession with that leaf', async () => {
    let done = 0;
    for (const file of h.corpus.filter(
      (c) => (c.features.includes('branches') || c.features.includes('compaction-other-branch')) && usable(c),
    )) {
      const s = session(file);
      const reading = readSession(s);
      const onPath = new Set(reading.pathIds);
      const target = s.entries.find((e) => !onPath.has(e.id) && e.type === 'message');
      if (!target) continue;
      const row = rowOf(file)!;
      await page.goto(deepLink(h.origin, row.sessionId, target.id));
      await page.click('[data-testid="tab-entry"]');
      await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${target.id}"]`);
      await page.click('[data-testid="what-if-leaf"]');
      await page.waitForSelector(`[data-testid="context-panel"][data-leaf-id="${target.id}"]`);
      const expected = readSession(s, { leafId: target.id }).contextEntryIds;
      expect(
        (await contextIdsOnScreen()).map(([id]) => id),
        file.name,
      ).toEqual(expected);
      // The graph marks the what-if leaf and shades the entries by the hypothetical context.
      await page.waitForSelector(
        `.react-flow__node[data-id="${target.id}"][data-what-if-leaf="true"][data-context="included"]`,
      );
      if (++done === 3) break;
    }
    expect(done).toBeGreaterThan(0);
    await h.shot('11-what-if-leaf');
    await page.click('[data-testid="what-if-reset"]');
    await page.waitForSelector('[data-testid="what-if-chip"]', { state: 'detached' });
  });

  it('shades graph nodes with the states buildContextView gives', async () => {
    const sample = h.corpus
      .filter(
        (c) =>
          usable(c) &&
          ['context-edit', 'compaction', 'bash', 'branches', 'compaction-nested'].some((f) => c.features.includes(f)),
      )
      .slice(0, 6);
    let checked = 0;
    for (const file of sample) {
      const s = session(file);
      const view = buildContextView(s, readSessionDetailed(s));
      const states = new Map(view.entries.map((e) => [e.id, e.state]));
      await page.goto(deepLink(h.origin, rowOf(file)!.sessionId));
      await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${rowOf(file)!.sessionId}"]`);
      await page.selectOption('[data-testid="filter-mode"]', 'all');
      await page.click('text=fit');
      await page.waitForSelector('.react-flow__node[data-context]');
      await page.waitForTimeout(400); // the fit animation
      const nodes = await page.$$eval('.react-flow__node[data-kind="entry"]', (els) =>
        els.map((el) => [(el as HTMLElement).dataset.id!, (el as HTMLElement).dataset.context ?? null] as const),
      );
      expect(nodes.length).toBeGreaterThan(0);
      for (const [id, state] of nodes) {
        expect(state, `${file.name} ${id}`).toBe(states.get(id));
        checked++;
      }
    }
    console.log(`[e2e] data-context matched buildContextView on ${checked} drawn nodes of ${sample.length} files`);
    await page.selectOption('[data-testid="filter-mode"]', 'default');
  });

  it('inspects a compaction: summary beside what it replaced, hidden entries highlighted on the graph', async () => {
    const file = h.corpus.find(
      (c) =>
        c.writer === 'ca' &&
        c.features.includes('compaction') &&
        usable(c) &&
        readSession(session(c)).contextEntryIds.length > 0 &&
        buildContextView(session(c), readSessionDetailed(session(c))).compactions.some(
          (x) => x.active && x.hiddenIds.length > 0,
        ),
    )!;
    const s = session(file);
    const info = buildContextView(s, readSessionDetailed(s)).compactions.find((c) => c.active)!;
    await page.goto(deepLink(h.origin, rowOf(file)!.sessionId, info.id));
    await page.click('[data-testid="tab-entry"]');
    await page.waitForSelector(
      `[data-testid="inspector"][data-entry-id="${info.id}"] [data-testid="compaction-inspector"][data-active="true"]`,
    );
    expect(await page.getAttribute('[data-testid="compaction-hidden"]', 'data-count')).toBe(
      String(info.hiddenIds.length),
    );
    await page.click('[data-testid="highlight-hidden"]');
    await page.waitForSelector('.react-flow__node[data-highlight="true"]');
    await page.waitForTimeout(400);
    await h.shot('12-compaction-inspector');
    await page.click('[data-testid="compaction-compare-open"]');
    const compare = await page.waitForSelector('[data-testid="compaction-compare"]');
    expect(await compare.textContent()).toContain('Summary');
    await h.shot('13-compaction-compare');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="compaction-compare"]', { state: 'detached' });

    // H3: the retainedTail messages are listed with the path entries they copy.
    const h3 = h.corpus.find((c) => {
      if (!usable(c)) return false;
      const v = buildContextView(session(c), readSessionDetailed(session(c)));
      return v.profile === 'h3' && v.compactions.some((x) => x.active && (x.retainedTailCount ?? 0) > 0);
    })!;
    expect(h3, 'a file with an active retainedTail compaction').toBeDefined();
    const hv = buildContextView(session(h3), readSessionDetailed(session(h3)));
    const tailed = hv.compactions.find((c) => c.active)!;
    await page.goto(deepLink(h.origin, rowOf(h3)!.sessionId, tailed.id));
    const ci = await page.waitForSelector(
      `[data-testid="inspector"][data-entry-id="${tailed.id}"] [data-testid="compaction-inspector"][data-active="true"]`,
    );
    const text = (await ci.textContent())!;
    expect(text).toContain(`retainedTail: ${tailed.retainedTailCount} message`);
    for (const m of hv.messages.filter((x) => x.copyOf)) expect(text).toContain(`copy of ${m.copyOf}`);
    await page.waitForTimeout(300);
    await h.shot('13b-retained-tail');
  });

  async function forkThroughUi(file: CorpusFile, entry: EntryNodeDto, mode: 'before' | 'at', shotName: string) {
    const row = rowOf(file)!;
    await page.goto(deepLink(h.origin, row.sessionId, entry.id));
    await page.click('[data-testid="tab-entry"]');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${entry.id}"] [data-testid="fork-panel"]`);
    await page.click(`[data-testid="fork-panel"] [data-fork-mode="${mode}"]`);
    await page.waitForSelector(
      `[data-testid="fork-panel"][data-mode="${mode}"] [data-testid="fork-preview"][data-status="ok"]`,
    );
    const previewCount = Number(await page.getAttribute('[data-testid="fork-entry-count"]', 'data-count'));
    await h.shot(shotName);
    await page.click('[data-testid="fork-button"]');
    const result = await page.waitForSelector('[data-testid="fork-result"]');
    const newId = (await result.getAttribute('data-session-id'))!;
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${newId}"]`);
    const command = (await page.textContent('[data-testid="fork-command"]'))!;
    const listed = await h.call<SessionListDto>('sessions.list', {});
    const newRow = listed.sessions.find((r) => r.sessionId === newId)!;
    expect(command).toBe(resumeCommandIn(newRow.cwd, newRow.path));
    return { newRow, previewCount };
  }

  it('forks through the UI exactly as `canopy fork` does (CA before a user message, H3 at an entry)', async () => {
    const cases: Array<{ writer: 'ca' | 'h3'; mode: 'before' | 'at' }> = [
      { writer: 'ca', mode: 'before' },
      { writer: 'h3', mode: 'at' },
    ];
    for (const { writer, mode } of cases) {
      const file = h.corpus.find(
        (c) => c.writer === writer && usable(c) && c.features.includes(writer === 'h3' ? 'compaction' : 'labels'),
      )!;
      const g = await graphOf(rowOf(file)!.sessionId);
      const users = g.entries.filter((e) => e.type === 'message' && e.role === 'user' && e.parentId !== null);
      const target =
        mode === 'before'
          ? users[users.length - 1]!
          : g.entries.find((e) => e.id === g.pathIds[Math.floor(g.pathIds.length / 2)])!;
      const { newRow, previewCount } = await forkThroughUi(file, target, mode, `14-fork-preview-${writer}`);
      const uiFile = readJsonl(newRow.path);
      expect(uiFile.length - 1).toBe(previewCount);

      const r = await cli(['fork', file.path, '--entry', target.id, '--position', mode, '--json']);
      expect(r.code, r.err).toBe(0);
      const out = JSON.parse(r.out) as { ok: boolean; path: string };
      expect(out.ok).toBe(true);
      compareForkFiles(uiFile, readJsonl(out.path), new Set(session(file).entries.map((e) => e.id)));
      console.log(
        `[e2e] ${writer} fork ${mode} ${target.id}: UI file equals canopy fork (${uiFile.length - 1} entries)`,
      );
    }
    await h.shot('15-fork-result');
  });

  it('shows the family: a marker at the fork point in the parent, one back in the child, nesting in the sidebar', async () => {
    // The last fork made above is open; its parent is the source.
    const childId = (await page.getAttribute('[data-testid="fork-result"]', 'data-session-id'))!;
    await page.waitForSelector('[data-testid="lineage-bar"] [data-testid="lineage-bar-parent"]');
    await page.click('text=fit');
    const parentFlag = await page.waitForSelector('[data-testid="lineage-parent"]');
    const parentId = (await parentFlag.getAttribute('data-session-id'))!;
    const childRow = await sessionRowInView(page, childId);
    expect(await childRow.getAttribute('data-depth')).toBe('1');
    expect(await childRow.getAttribute('data-parent-session-id')).toBe(parentId);
    const order = await page.$$eval('[data-testid="session-row"]', (els) =>
      els.map((el) => [(el as HTMLElement).dataset.sessionId!, Number((el as HTMLElement).dataset.depth)] as const),
    );
    const pi = order.findIndex(([id]) => id === parentId);
    const ci = order.findIndex(([id]) => id === childId);
    expect(pi).toBeGreaterThanOrEqual(0);
    expect(ci).toBeGreaterThan(pi);
    for (const [, depth] of order.slice(pi + 1, ci)) expect(depth).toBeGreaterThanOrEqual(1);
    await h.shot('16-lineage-child');

    await parentFlag.click();
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${parentId}"]`);
    const back = await page.waitForSelector(`[data-testid="lineage-child"][data-session-id="${childId}"]`);
    await page.waitForTimeout(300);
    await h.shot('17-lineage-parent');
    await back.click();
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${childId}"]`);
  });

  it('refuses an invalid target with pi’s reason and writes nothing', async () => {
    for (const writer of ['ca', 'h3'] as const) {
      const file = h.corpus.find((c) => c.writer === writer && usable(c) && c.features.includes('branches'))!;
      const g = await graphOf(rowOf(file)!.sessionId);
      const assistant = g.entries.find((e) => e.type === 'message' && e.role === 'assistant')!;
      await page.goto(deepLink(h.origin, g.sessionId, assistant.id));
      await page.click('[data-testid="tab-entry"]');
      await page.waitForSelector(
        `[data-testid="inspector"][data-entry-id="${assistant.id}"] [data-testid="fork-panel"]`,
      );
      const before = hashTree(h.sessionsDir);
      await page.click('[data-testid="fork-panel"] [data-fork-mode="before"]');
      const preview = await page.waitForSelector('[data-testid="fork-preview"][data-status="refused"]');
      const text = (await preview.textContent())!;
      expect(text).toContain(writer === 'ca' ? 'Invalid entry ID for forking' : 'is not a user message');
      expect(await page.isDisabled('[data-testid="fork-button"]')).toBe(true);
      await page.click('[data-testid="fork-button"]', { force: true });
      const refused = await h.api('session.fork', {
        sessionId: g.sessionId,
        request: { kind: 'fork', entryId: assistant.id, position: 'before' },
      });
      expect(refused.body).toMatchObject({ ok: false, error: { code: 'invalid_fork_target' } });
      await page.waitForTimeout(300);
      expect(hashTree(h.sessionsDir)).toBe(before);
      if (writer === 'ca') await h.shot('18-fork-refused');
    }
  });

  it('shows a line pi appends without a reload, keeping the selection and the viewport (following paused)', async () => {
    const file = h.corpus.find((c) => c.writer === 'ca' && usable(c) && c.features.includes('branches'))!;
    const row = rowOf(file)!;
    const g = await graphOf(row.sessionId);
    const selected = g.leafId!;
    await page.goto(deepLink(h.origin, row.sessionId, selected));
    await page.waitForSelector(`.react-flow__node[data-id="${g.leafId}"][data-leaf="true"]`);
    await page.click('[data-testid="tab-context"]');
    await page.waitForSelector(`[data-testid="context-panel"][data-leaf-id="${g.leafId}"]`);
    // Following the leaf (on by default) would move the selection and the view: paused here.
    await page.click('[data-testid="graph-panel"] [data-testid="follow-toggle"]');
    expect(await page.getAttribute('[data-testid="graph-panel"] [data-testid="follow-toggle"]', 'aria-pressed')).toBe(
      'false',
    );
    const viewport = () => page.$eval('.react-flow__viewport', (el) => (el as HTMLElement).style.transform);
    // The opening zoom animates for a while that depends on the machine's load: wait until the
    // viewport holds still instead of sleeping a fixed time.
    let before = await viewport();
    for (let still = 0; still < 3;) {
      await page.waitForTimeout(150);
      const now = await viewport();
      still = now === before ? still + 1 : 0;
      before = now;
    }

    const id = 'f0e1d2c3';
    const line = {
      type: 'message',
      id,
      parentId: g.leafId,
      timestamp: new Date().toISOString(),
      message: {
        role: 'user',
        content: [{ type: 'text', text: 'live append probe: does the view follow?' }],
        timestamp: Date.now(),
      },
    };
    const t0 = performance.now();
    appendFileSync(file.path, `${JSON.stringify(line)}\n`);
    await page.waitForSelector(`.react-flow__node[data-id="${id}"][data-leaf="true"]`, { timeout: 15_000 });
    const tNode = performance.now() - t0;
    await page.waitForSelector(
      `[data-testid="context-panel"][data-leaf-id="${id}"] [data-testid="context-entry"][data-entry-id="${id}"]`,
      { timeout: 15_000 },
    );
    const tContext = performance.now() - t0;
    console.log(
      `[e2e] live append: node on screen after ${Math.round(tNode)} ms, context view after ${Math.round(tContext)} ms`,
    );

    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/session/${row.sessionId}?entry=${selected}`);
    expect(await page.$(`.react-flow__node[data-id="${g.leafId}"][data-leaf="true"]`)).toBeNull();
    expect(await viewport()).toBe(before);
    const ids = (await contextIdsOnScreen()).map(([x]) => x);
    expect(ids).toEqual(readSession(parseSessionText(readFileSync(file.path, 'utf8'))).contextEntryIds);

    // Latency, measured in the page: wall clock at the write (Node) to the first animation frame
    // whose graph holds the new leaf (the page polls every frame; the canvas itself draws only the
    // nodes in view, and the viewport stays put). Each append follows a quiet spell, as a person
    // typing to pi would produce, so each takes the watcher's leading edge.
    const lags: number[] = [];
    let parentId = id;
    for (let k = 0; k < 5; k++) {
      await page.waitForTimeout(400);
      const childId = `f0e1d2e${k}`;
      await page.evaluate((sel) => {
        const w = window as unknown as { __probe?: Promise<number> };
        w.__probe = new Promise<number>((resolve) => {
          const tick = () =>
            document.querySelector(sel)
              ? resolve(performance.timeOrigin + performance.now())
              : requestAnimationFrame(tick);
          requestAnimationFrame(tick);
        });
      }, `[data-testid="graph-panel"][data-leaf-id="${childId}"]`);
      const next = { ...line, id: childId, parentId, timestamp: new Date().toISOString() };
      const written = performance.timeOrigin + performance.now();
      appendFileSync(file.path, `${JSON.stringify(next)}\n`);
      const shown = await page.evaluate(() => (window as unknown as { __probe: Promise<number> }).__probe);
      lags.push(shown - written);
      parentId = childId;
    }
    const sorted = [...lags].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `[e2e] live append latency (page frame after write): ${lags.map((x) => Math.round(x)).join(', ')} ms; median ${Math.round(median)} ms (target <= 250 ms)`,
    );
    // Speed is the bench's to judge (a stalled frame on a loaded machine is not a regression);
    // here every append must have reached the graph, each after its write.
    expect(lags).toHaveLength(5);
    for (const lag of lags) expect(lag).toBeGreaterThanOrEqual(0);
    await h.shot('19-live-append');
  });

  it('looks right in the dark theme too', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const file =
      h.corpus.find(
        (c) => c.writer === 'h3' && usable(c) && c.features.includes('compaction') && c.features.includes('branches'),
      ) ?? h.corpus.find((c) => c.writer === 'h3' && usable(c) && c.features.includes('compaction'))!;
    await openContext(rowOf(file)!.sessionId);
    await page.waitForTimeout(300);
    await h.shot('20-dark-context');
    const g = await graphOf(rowOf(file)!.sessionId);
    const c = g.entries.find((e) => e.type === 'compaction')!;
    await page.goto(deepLink(h.origin, g.sessionId, c.id));
    await page.click('[data-testid="tab-entry"]');
    await page.waitForSelector(
      `[data-testid="inspector"][data-entry-id="${c.id}"] [data-testid="fork-preview"][data-status="ok"]`,
    );
    await page.waitForTimeout(300);
    await h.shot('21-dark-entry-fork');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('ran without a script error or console error', () => {
    expect(h.pageErrors).toEqual([]);
  });
});
