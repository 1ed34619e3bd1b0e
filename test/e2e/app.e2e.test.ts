/**
 * End to end: `canopy serve` (in process) on a temp root of generated pi sessions, driven by the
 * real Chromium through playwright-core. Asserts on the DOM and saves screenshots to
 * test-output/e2e/. Skipped, with the reason printed, where /usr/bin/chromium is missing.
 */
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../electron/ipc/serve-http';
import type { EntryNodeDto, SessionGraphDto, SessionListDto } from '../../electron/shared/dto';
import type { Result } from '../../electron/shared/errors';
import { HAVE_CHROMIUM, SHOTS, openViaRow as openRow, startHarness, type Harness } from './harness';
import { graphFromWire, type SessionGraphWireDto } from '../../electron/shared/entry-nodes';
import { BASE_HANDLES, KEPT_HANDLES } from '../../renderer/src/features/graph/model/flow';

describe.skipIf(!HAVE_CHROMIUM)('canopy serve in Chromium', () => {
  let h: Harness;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let origin: string;
  let list: SessionListDto;
  const graphs = new Map<string, SessionGraphDto>();
  let pageErrors: string[] = [];

  const api = <T>(channel: string, args: unknown, token?: string): Promise<{ status: number; body: Result<T> }> =>
    h.api<T>(channel, args, token);
  const shot = (name: string) => h.shot(name);

  /** A session whose graph satisfies `pick`, found through the API itself. */
  function find(pick: (g: SessionGraphDto) => boolean, what: string): SessionGraphDto {
    for (const g of graphs.values()) if (pick(g)) return g;
    throw new Error(`the corpus has no session with ${what}`);
  }

  const openViaRow = (sessionId: string) => openRow(page, sessionId);

  beforeAll(async () => {
    h = await startHarness();
    ({ server, context, page, origin, pageErrors } = h);
    const listed = await api<SessionListDto>('sessions.list', {});
    if (!listed.body.ok) throw new Error(listed.body.error.message);
    list = listed.body.data;
    for (const row of list.sessions) {
      const opened = await api<SessionGraphWireDto>('session.open', { sessionId: row.sessionId });
      if (opened.body.ok) graphs.set(row.sessionId, graphFromWire(opened.body.data));
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  it('lists the sessions and takes the token out of the address bar', async () => {
    await page.goto(server.url);
    await page.waitForSelector('[data-testid="session-row"]');
    expect(page.url()).not.toContain('token');
    expect(await page.textContent('[data-testid="session-count"]')).toBe(String(list.sessions.length));
    const first = await page.$$eval('[data-testid="session-row"]', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.sessionId),
    );
    expect(first.length).toBeGreaterThan(5);
    for (const id of first) expect(list.sessions.some((s) => s.sessionId === id)).toBe(true);
    expect(await page.$$('[data-testid="project-row"]')).not.toHaveLength(0);
    await shot('01-list');
  });

  it('opens a branched session and highlights the leaf → root path', async () => {
    const g = find(
      (x) =>
        x.leafId !== null &&
        x.pathIds.length >= 3 &&
        x.entries.some((e) => e.parentId !== null && x.entries.filter((o) => o.parentId === e.parentId).length > 1),
      'a branch',
    );
    await openViaRow(g.sessionId);
    await page.click('text=fit');
    // Fit draws level 0, the skeleton, whole in the pane (once its animation ends).
    await page.waitForSelector('[data-testid="graph-canvas"][data-level="0"]');
    await page.waitForSelector(`.react-flow__node[data-id="${g.leafId}"][data-on-path="true"]`);
    await page.waitForTimeout(500);
    const nodes = await page.$$eval('.react-flow__node', (els) =>
      els.map((el) => ({
        id: (el as HTMLElement).dataset.id!,
        kind: (el as HTMLElement).dataset.kind!,
        entryKind: (el as HTMLElement).dataset.entryKind,
        onPath: (el as HTMLElement).dataset.onPath === 'true',
      })),
    );
    const path = new Set(g.pathIds);
    const drawnEntries = nodes.filter((n) => n.kind === 'entry');
    expect(drawnEntries.length).toBeGreaterThan(2);
    for (const n of drawnEntries) expect(n.onPath, `${n.id} on path`).toBe(path.has(n.id));
    // The other branch: its entries off the path, or at fit a cluster beside the trunk that counts it.
    expect(nodes.some((n) => n.kind === 'cluster' || (n.kind === 'entry' && !n.onPath))).toBe(true);
    const byId = new Map(g.entries.map((e) => [e.id, e]));
    for (const n of drawnEntries) {
      const e = byId.get(n.id)!;
      expect(n.entryKind).toBe(e.type === 'message' ? e.role : e.type);
    }
    expect(await page.$$('.react-flow__edge.on-path')).not.toHaveLength(0);
    await shot('02-branched-path');
  });

  it('marks both kinds of compaction checkpoint differently', async () => {
    const compactionOf = (g: SessionGraphDto, kind: string): EntryNodeDto | undefined =>
      g.entries.find((e) => e.type === 'compaction' && e.checkpoint === kind);
    const retained = find((g) => compactionOf(g, 'retained-tail') !== undefined, 'a retainedTail compaction');
    const firstKept = find((g) => {
      const c = compactionOf(g, 'first-kept');
      return !!c && !!c.firstKeptEntryId && g.entries.some((e) => e.id === c.firstKeptEntryId);
    }, 'a firstKeptEntryId compaction');

    const rc = compactionOf(retained, 'retained-tail')!;
    await page.goto(`${origin}/#/session/${encodeURIComponent(retained.sessionId)}?entry=${encodeURIComponent(rc.id)}`);
    const rNode = await page.waitForSelector(`.react-flow__node[data-id="${rc.id}"]`);
    expect(await rNode.getAttribute('data-checkpoint')).toBe('retained-tail');
    expect(await rNode.getAttribute('data-kind')).toBe('entry');
    expect(await rNode.getAttribute('data-entry-kind')).toBe('compaction');
    expect(await rNode.textContent()).toContain('self-contained');
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${rc.id}"]`);
    expect(await page.textContent('[data-testid="inspector"]')).toContain('retainedTail');
    await shot('03-retained-tail');

    const fc = compactionOf(firstKept, 'first-kept')!;
    await page.goto(
      `${origin}/#/session/${encodeURIComponent(firstKept.sessionId)}?entry=${encodeURIComponent(fc.id)}`,
    );
    const fNode = await page.waitForSelector(`.react-flow__node[data-id="${fc.id}"]`);
    expect(await fNode.getAttribute('data-checkpoint')).toBe('first-kept');
    await page.click('text=fit');
    await page.waitForSelector('.react-flow__edge.first-kept-edge');
    const keptEdge = await page.$eval('.react-flow__edge.first-kept-edge', (el) => (el as HTMLElement).dataset.id);
    expect(keptEdge).toMatch(new RegExp(`^k:${fc.id}->`));
    await shot('04-first-kept');

    // flow.ts declares the handles (react-flow then need not draw every node once to measure it):
    // they must be where the drawn nodes have them.
    const drawn = await page.$$eval('.react-flow__node', (nodes) => {
      const viewport = document.querySelector('.react-flow__viewport') as HTMLElement;
      const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
      return nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return [...n.querySelectorAll('.react-flow__handle')].map((el) => {
          const b = el.getBoundingClientRect();
          return {
            id: el.getAttribute('data-handleid'),
            x: (b.left - r.left) / zoom,
            y: (b.top - r.top) / zoom,
            width: b.width / zoom,
            height: b.height / zoom,
          };
        });
      });
    });
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.some((hs) => hs.some((x) => x.id === 'ks'))).toBe(true);
    for (const handles of drawn) {
      const declared = handles.some((x) => x.id === 'ks') ? KEPT_HANDLES : BASE_HANDLES;
      expect(handles.map((x) => x.id).sort()).toEqual(declared.map((d) => d.id).sort());
      for (const x of handles) {
        const d = declared.find((k) => k.id === x.id)!;
        for (const k of ['x', 'y', 'width', 'height'] as const) expect(x[k]).toBeCloseTo(d[k]!, 1);
      }
    }
  });

  it('shows the selected entry in the inspector with its line number', async () => {
    const g = find((x) => x.entries.some((e) => e.role === 'assistant' && e.model), 'an assistant message');
    await openViaRow(g.sessionId);
    const target =
      g.entries.find((e) => e.id === g.leafId && e.role === 'assistant') ??
      g.entries.find((e) => e.role === 'assistant' && e.model)!;
    await page.goto(`${origin}/#/session/${encodeURIComponent(g.sessionId)}?entry=${encodeURIComponent(target.id)}`);
    await page.click(`.react-flow__node[data-id="${target.id}"]`);
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${target.id}"]`);
    expect(await page.textContent('[data-testid="inspector-line"]')).toBe(`line ${target.line}`);
    const text = (await page.textContent('[data-testid="inspector"]'))!;
    expect(text).toContain(target.model!.split('/').pop()!);
    expect(await page.$('[data-testid="assistant-meta"]')).not.toBeNull();
    await shot('05-inspector');
  });

  it('follows a deep link after a reload (the token stays in the tab)', async () => {
    const g = find((x) => x.entries.length >= 4, 'four entries');
    const entry = g.entries[1]!;
    await page.goto(`${origin}/#/session/${encodeURIComponent(g.sessionId)}?entry=${encodeURIComponent(entry.id)}`);
    await page.reload(); // a real page load, not just a hash change
    await page.waitForSelector(`[data-testid="graph-panel"][data-session-id="${g.sessionId}"]`);
    await page.waitForSelector(`[data-testid="inspector"][data-entry-id="${entry.id}"]`);
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/session/${g.sessionId}?entry=${entry.id}`);
    // Selecting another entry rewrites the hash.
    const other = g.entries.find((e) => e.id === g.leafId)!;
    await page.click('[data-testid="zoom-to-leaf"]');
    await page.click(`.react-flow__node[data-id="${other.id}"]`);
    await page.waitForFunction((id) => decodeURIComponent(location.hash).endsWith(`?entry=${id}`), other.id);
    await shot('06-deep-link');
  });

  it('moves with the keyboard and jumps to search hits', async () => {
    const g = find((x) => x.leafId !== null && x.pathIds.length >= 4, 'a path of four entries');
    await openViaRow(g.sessionId);
    await page.waitForSelector(`.react-flow__node[data-id="${g.leafId}"]`);
    await page.focus('[data-testid="graph-canvas"]');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    const inspected = await page.waitForSelector('[data-testid="inspector"][data-entry-id]');
    const id = await inspected.getAttribute('data-entry-id');
    const byId = new Map(g.entries.map((e) => [e.id, e]));
    const ancestors = new Set<string>();
    for (
      let cur = byId.get(g.leafId!)?.parentId ?? null;
      cur && !ancestors.has(cur);
      cur = byId.get(cur)?.parentId ?? null
    )
      ancestors.add(cur);
    expect(ancestors.has(id!), `${id} is an ancestor of the leaf`).toBe(true);

    const hit = g.entries.find((e) => e.preview.trim().length > 8 && e.type === 'message' && e.role === 'user')!;
    const words = hit.preview.trim().split(/\s+/).slice(0, 2).join(' ');
    await page.fill('[data-testid="graph-search"]', words);
    await page.press('[data-testid="graph-search"]', 'Enter');
    await page.waitForSelector('.react-flow__node[data-match="true"]');
    await page.waitForFunction(() =>
      /^1\/\d+$/.test(document.querySelector('[data-testid="search-count"]')?.textContent ?? ''),
    );
    // The inspector shows the first match once the search's selection lands (it may be the entry inspected
    // above: the session picked, and so its first match, depends on the listing order).
    const word = words.toLowerCase().split(' ')[0]!;
    const matching = g.entries.filter((e) => e.preview.toLowerCase().includes(word)).map((e) => e.id);
    await page.waitForFunction(
      (ids) => ids.includes(document.querySelector('[data-testid="inspector"]')?.getAttribute('data-entry-id') ?? ''),
      matching,
    );
    await shot('07-keyboard-search');
    await page.fill('[data-testid="graph-search"]', '');
  });

  it('ran without a script error or console error so far', () => {
    expect(pageErrors).toEqual([]);
  });

  it('refuses a wrong token: the API answers 403 and the UI says so', async () => {
    const refused = await api('sessions.list', {}, 'not-the-token');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    const other = await context.newPage(); // a new tab: no stored token
    await other.goto(`${origin}/?token=not-the-token#/session/x`);
    const banner = await other.waitForSelector('[data-testid="fatal-error"]');
    expect(await banner.getAttribute('data-code')).toBe('forbidden');
    expect(await banner.textContent()).toContain('Access refused');
    expect(await other.$('[data-testid="session-row"]')).toBeNull();
    await other.screenshot({ path: join(SHOTS, '08-wrong-token.png') });
    await other.close();
  });
});
