/**
 * One Canopy measurement in a fresh process (clean peak RSS): prints one JSON line.
 *   open FILE     index the file, then read it at its current leaf (leaf, path, context)
 *   floor FILE    what any index of the file costs at least: the streaming read, the line split
 *                 and the envelope scan of every line (nothing is kept)
 *   graph FILE    what the app waits for before it draws: session.open through the catalog (the
 *                 index, leaf, path, context ids, the packed graph from the index), then
 *                 session.previews of the 60 entries around the leaf (what a first frame shows)
 *   graph-full FILE  session.open as it was: every body read once for the previews first
 *   previews-once FILE  a file opened with every preview (a small file's session.open): bodies skimmed
 *                 in the index pass, one read; `previews-twice`: the index pass, then a previews pass
 *   switch FILE   index, then switch between branch leaves: path + the ~50 bodies nearest the leaf
 *   list ROOT     list every session under ROOT (headers only)
 *   layout FILE   the renderer's tree index + filter + collapse over the file's entries, then the level of
 *                 detail in lanes as a big session opens and at fit (graph/model/lod-view.ts)
 *   filter N      the session list's filter per keystroke on N sessions in memory (bench/filter-rows.ts)
 *   cli-context FILE / cli-tree FILE   `canopy context FILE` / `canopy tree FILE` (the commands' run)
 */
import { buildLodView, openingOf } from '../renderer/src/features/graph/model/lod-view';
import { linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  previewEntry,
  newEnvelopeScan,
  scanEnvelope,
  detectProfile,
  readPath,
  readSession,
  type Entry,
  type ParsedSession,
} from '../electron/core';
import { scanLines } from '../electron/storage/line-scan';
import { contextCommand } from '../electron/cli/context';
import { treeCommand } from '../electron/cli/tree';
import { SessionCatalog } from '../electron/repo/catalog';
import { SessionService } from '../electron/repo/session-service';
import { openIndexed } from '../electron/repo/session-file';
import { SessionStore } from '../electron/repo/session-store';
import { listSessions } from '../electron/repo/sessions';
import type { EntryNodeDto, SessionGraphDto } from '../electron/shared/dto';
import { buildTreeIndex } from '../renderer/src/model/tree-index';
import { filterKeystrokes } from './filter-rows';
import { buildGraphView } from '../renderer/src/features/graph/model/view';

function rssMB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function open(path: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const s = await openIndexed(path);
  const indexed = performance.now();
  const r = readSession(s);
  const ms = performance.now() - t0;
  const messages = (r.context as { messages: unknown[] }).messages.length;
  const m = process.memoryUsage();
  return {
    ms,
    indexMs: indexed - t0,
    entries: s.entries.length,
    pathLength: r.pathIds.length,
    contextMessages: messages,
    profile: r.profile,
    heapMB: m.heapUsed / 1024 / 1024,
    externalMB: (m.external + m.arrayBuffers) / 1024 / 1024,
  };
}

async function floor(path: string): Promise<Record<string, unknown>> {
  const scan = newEnvelopeScan();
  let lines = 0;
  let scanned = 0;
  const t0 = performance.now();
  await scanLines(path, (b, start, end) => {
    lines++;
    if (scanEnvelope(b, start, end, scan)) scanned++;
  });
  return { ms: performance.now() - t0, lines, scanned };
}

async function graph(path: string, full = false): Promise<Record<string, unknown>> {
  // The catalog lists roots of project folders: link the file into a fresh one next to it.
  const root = mkdtempSync(join(dirname(path), 'graph-root-'));
  try {
    mkdirSync(join(root, '--bench--'));
    linkSync(path, join(root, '--bench--', basename(path)));
    const catalog = new SessionCatalog({
      roots: [root],
      ...(full ? { lazyAboveBytes: Number.POSITIVE_INFINITY } : {}),
    });
    const sessions = new SessionService(catalog);
    const list = await catalog.list();
    const id = list.sessions[0]!.sessionId;
    const t0 = performance.now();
    const g = await sessions.graph(id);
    const ms = performance.now() - t0;
    const answerMB = JSON.stringify(g).length / 1024 / 1024;
    // The nodes a first frame around the leaf shows.
    const visible = g.pathIds.slice(-60);
    const p0 = performance.now();
    const previews = await sessions.get(id).previews(visible);
    const previewsMs = performance.now() - p0;
    return {
      ms,
      entries: g.entries.ids.length,
      answerMB,
      pending: g.pending === true,
      previewsMs,
      previews: Object.keys(previews).length,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function withPreviews(path: string, skimBodies: boolean): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const previews = await new SessionStore().with(path, (s, open) => open.bodies.previews(s), { skimBodies });
  return { ms: performance.now() - t0, entries: previews.length };
}

/** Entries nobody names as parent: the tips of branches. */
function branchTips(s: ParsedSession): Entry[] {
  const parents = new Set<string>();
  for (const e of s.entries) if (e.parentId) parents.add(e.parentId);
  return s.entries.filter((e) => !parents.has(e.id));
}

async function switchBranches(path: string): Promise<Record<string, unknown>> {
  const s = await openIndexed(path);
  const tips = branchTips(s);
  // Spread the picks over the file (old and new branches).
  const picks: Entry[] = [];
  const want = Math.min(40, tips.length);
  for (let k = 0; k < want; k++) picks.push(tips[Math.floor((k * tips.length) / want)]!);
  const profile = detectProfile(s);
  // The first walk after opening builds nothing more (the parent table comes from the index), but
  // it is reported separately anyway.
  const t1 = performance.now();
  readPath(s, { profile, leafId: picks[0]!.id });
  const firstMs = performance.now() - t1;
  const times: number[] = [];
  const parts = { walk: [] as number[], ids: [] as number[], bodies: [] as number[] };
  let longest = 0;
  let bodies = 0;
  for (const tip of picks) {
    const t0 = performance.now();
    const reading = readPath(s, { profile, leafId: tip.id });
    const t1 = performance.now();
    // The bodies a view shows near the leaf.
    const n = reading.path.length;
    for (let k = Math.max(0, n - 50); k < n; k++) {
      void reading.path.entryAt(k).raw;
      bodies++;
    }
    const t2 = performance.now();
    times.push(t2 - t0);
    // Not part of a switch: every id on the path as strings (what a full path DTO would carry).
    const pathIds = reading.pathIds();
    const t3 = performance.now();
    parts.walk.push(t1 - t0);
    parts.bodies.push(t2 - t1);
    parts.ids.push(t3 - t2);
    longest = Math.max(longest, pathIds.length);
  }
  return {
    ms: median(times),
    maxMs: Math.max(...times),
    firstMs,
    switches: times.length,
    bodies,
    entries: s.entries.length,
    longestPath: longest,
    profile,
    walkMs: median(parts.walk),
    idsMs: median(parts.ids),
    bodiesMs: median(parts.bodies),
  };
}

async function list(root: string): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const r = await listSessions([root]);
  return { ms: performance.now() - t0, sessions: r.sessions.length, skipped: r.skipped.length };
}

async function layout(path: string): Promise<Record<string, unknown>> {
  const s = await openIndexed(path);
  const r = readSession(s);
  const nodes: EntryNodeDto[] = s.entries.map((e) => ({
    id: e.id,
    parentId: e.parentId,
    type: e.type,
    line: e.line,
    timestamp: e.timestamp,
    ...previewEntry(e),
  }));
  const graph = {
    entries: nodes,
    leafId: r.leafId,
    pathIds: r.pathIds,
    labels: r.labels,
  } as unknown as SessionGraphDto;
  const t0 = performance.now();
  const index = buildTreeIndex(nodes, r.leafId);
  const indexed = performance.now();
  const view = buildGraphView(graph, index, {
    filterMode: 'default',
    showLeafRecords: false,
    expanded: new Set(),
    selectedId: null,
  });
  const done = performance.now();
  // The level of detail and its lanes, as a big session opens (7 rows fit) and at fit (level 0).
  const opening = openingOf(view, r.leafId, 7);
  const l0 = performance.now();
  const opened = buildLodView(view, graph, { level: opening.level, rowsFit: 7, pinned: new Set(opening.pins) });
  const l1 = performance.now();
  const fit = buildLodView(view, graph, { level: 0, rowsFit: 7, pinned: new Set() });
  const l2 = performance.now();
  // ms: filter + collapse (buildGraphView); treeIndexMs: the parentId index it starts from.
  return {
    ms: done - indexed,
    treeIndexMs: indexed - t0,
    totalMs: done - t0,
    entries: nodes.length,
    drawn: view.stats.drawn,
    openLodMs: l1 - l0,
    openNodes: opened.lod.nodes.size,
    fitLodMs: l2 - l1,
    fitNodes: fit.lod.nodes.size,
  };
}

/** `canopy context|tree FILE` as the CLI runs it (the command itself; output counted, not printed). */
async function cliCommand(command: 'context' | 'tree', path: string): Promise<Record<string, unknown>> {
  let outChars = 0;
  const io = { stdout: { write: (s: string) => (outChars += s.length) }, stderr: { write: () => true } };
  const t0 = performance.now();
  const code = await (command === 'context' ? contextCommand : treeCommand).run(
    { values: {}, positionals: [path] },
    io,
  );
  return { ms: performance.now() - t0, code, outChars };
}

async function main(): Promise<void> {
  const [mode, target] = process.argv.slice(2);
  if (!mode || !target)
    throw new Error(
      'usage: child-canopy open|floor|graph|graph-full|previews-once|previews-twice|switch|list|layout|filter|cli-context|cli-tree PATH',
    );
  const run = {
    open,
    floor,
    graph,
    'graph-full': (p: string) => graph(p, true),
    switch: switchBranches,
    list,
    layout,
    filter: async (n: string) => filterKeystrokes(Number(n)),
    'previews-once': (p: string) => withPreviews(p, true),
    'previews-twice': (p: string) => withPreviews(p, false),
    'cli-context': (p: string) => cliCommand('context', p),
    'cli-tree': (p: string) => cliCommand('tree', p),
  }[mode];
  if (!run) throw new Error(`unknown mode ${mode}`);
  const result = await run(target);
  process.stdout.write(`${JSON.stringify({ ok: true, ...result, rssMB: rssMB() })}\n`);
}

main().catch((err: unknown) => {
  process.stdout.write(
    `${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err), rssMB: rssMB() })}\n`,
  );
  process.exitCode = 1;
});
