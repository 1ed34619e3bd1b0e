/**
 * The delta path, file → catalog → open session → event → what a view holds: a graph and a context
 * fetched once, then every append applied from its events alone, must equal a fresh session.open
 * and session.context of the file as it is now.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSessionFile } from '../../bench/generate';
import { createAppServices, type AppServices } from '../../electron/app-services';
import { EncodedJson } from '../../electron/repo/encoded-json';
import type { ContextViewDto } from '../../electron/shared/context-dto';
import type { SessionGraphDto } from '../../electron/shared/dto';
import { graphFromWire, unpackEntryNodes } from '../../electron/shared/entry-nodes';
import { unpackEntryStates } from '../../electron/shared/entry-states';
import {
  applyContextDelta,
  applyGraphDelta,
  type SessionAppendedDto,
  type SessionContextChangedDto,
} from '../../electron/shared/live-dto';
import { assistant, entry, header, jsonl, projectDirName, tempDir, user } from './helpers';

let app: AppServices | null = null;

/** An answer as the transports send it: a worker's JSON bytes are parsed as Electron's IPC parses them. */
function val<T>(answer: T): T {
  return answer instanceof EncodedJson ? (answer.value() as T) : answer;
}
afterEach(async () => {
  await app?.close();
  app = null;
});

interface View {
  sessionId: string;
  path: string;
  graph: SessionGraphDto;
  /** Nodes the first session.open sent. */
  openedWith: number;
  context: ContextViewDto;
  appended: SessionAppendedDto[];
  contexts: SessionContextChangedDto[];
}

/** A store holding one session's file (`lines`, or a generated file of `bytes`), opened as a view opens it. */
async function openView(lines: Array<Record<string, unknown>> | { bytes: number }, offload = false): Promise<View> {
  const root = await tempDir('canopy-live-deltas-');
  const dir = join(root, projectDirName('/p'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, '2026-03-01T10-00-00-000Z_live.jsonl');
  if (Array.isArray(lines)) writeFileSync(path, jsonl(lines));
  else writeSessionFile(path, { targetBytes: lines.bytes, seed: 7, scale: 0.2 });
  app = createAppServices({ roots: [root], transport: 'http', watch: false, offload });
  const appended: SessionAppendedDto[] = [];
  const contexts: SessionContextChangedDto[] = [];
  app.bus.subscribe((event, payload) => {
    if (event === 'session.appended') appended.push(payload as SessionAppendedDto);
    if (event === 'session.contextChanged') contexts.push(payload as SessionContextChangedDto);
  });
  const sessionId = (await app.handlers['sessions.list']({})).sessions[0]!.sessionId;
  const graph = graphFromWire(val(await app.handlers['session.open']({ sessionId })));
  const context = val(await app.handlers['session.context']({ sessionId }));
  return { sessionId, path, graph, openedWith: graph.entries.length, context, appended, contexts };
}

/** Appends `lines`, lets the catalog see it (as a watcher batch), and applies the events to the view. */
async function append(view: View, lines: Array<Record<string, unknown>>): Promise<void> {
  const from = { appended: view.appended.length, contexts: view.contexts.length };
  appendFileSync(view.path, jsonl(lines));
  await app!.catalog.followChanges([view.path]);
  await app!.sessions.live!.idle();
  for (const e of view.appended.slice(from.appended)) {
    expect(e.reset).toBeUndefined();
    const next = applyGraphDelta(view.graph, e.graph!, e.seq!, e.sizeBytes);
    expect(next).not.toBeNull();
    view.graph = next!;
  }
  for (const e of view.contexts.slice(from.contexts)) {
    expect(e.base).toBe(view.context.liveSeq);
    view.context = applyContextDelta(view.context, e.context, e.seq)!;
  }
}

/** What the view holds equals a fresh fetch (seq numbers aside). */
async function expectFresh(view: View): Promise<void> {
  const graph = graphFromWire(val(await app!.handlers['session.open']({ sessionId: view.sessionId })));
  const { liveSeq: _a, pending: _p, entries: freshNodes, ...fresh } = graph;
  const { liveSeq: _b, pending: _q, entries: heldNodes, ...held } = view.graph;
  expect(held).toEqual(fresh);
  // A graph drawn from the index (pending) holds appended nodes with their previews: as session.flags has them.
  const appendedFrom = graph.pending ? view.openedWith : heldNodes.length;
  const flagged = graph.pending
    ? unpackEntryNodes((await app!.handlers['session.flags']({ sessionId: view.sessionId })).entries)
    : freshNodes;
  expect(heldNodes.slice(0, appendedFrom)).toEqual(freshNodes.slice(0, appendedFrom));
  expect(heldNodes.slice(appendedFrom)).toEqual(flagged.slice(appendedFrom));
  const context = val(await app!.handlers['session.context']({ sessionId: view.sessionId }));
  const { liveSeq: _c, entries, ...rest } = context;
  const { liveSeq: _d, entries: heldEntries, ...heldRest } = view.context;
  expect(heldRest).toEqual(rest);
  expect(unpackEntryStates(heldEntries)).toEqual(unpackEntryStates(entries));
}

const base = () => [header('live', '/p'), user('u1', null, 'first question'), assistant('a1', 'u1', 'first answer')];

describe('live deltas, end to end', () => {
  it('an appended entry reaches the view as a delta: its node with its preview, the leaf, the path, the context', async () => {
    const view = await openView(base());
    await append(view, [user('u2', 'a1', 'second question')]);
    expect(view.appended).toHaveLength(1);
    const e = view.appended[0]!;
    expect(e).toMatchObject({ seq: 1, graph: { from: 2, leafId: 'u2', pathIds: { keep: 2, add: ['u2'] } } });
    expect(view.graph.entries.at(-1)).toMatchObject({ id: 'u2', parentId: 'a1', preview: 'second question' });
    // The context moved forward: only what follows the common start is sent.
    expect(view.contexts).toHaveLength(1);
    expect(view.contexts[0]!.context.entries.keep).toBe(2);
    expect(view.contexts[0]!.context.contextEntryIds).toEqual({ keep: 2, add: ['u2'] });
    await expectFresh(view);
  });

  it('a leaf that jumps to another branch sends the path from where the branches part', async () => {
    const view = await openView([...base(), user('u2', 'a1', 'q2'), assistant('a2', 'u2', 'r2')]);
    await append(view, [user('u3', 'a1', 'another way')]);
    expect(view.appended[0]!.graph).toMatchObject({ leafId: 'u3', pathIds: { keep: 2, add: ['u3'] } });
    expect(view.graph.pathIds).toEqual(['u1', 'a1', 'u3']);
    await expectFresh(view);
  });

  it('a label and a session_info rename appended change the labels and the name', async () => {
    const view = await openView(base());
    await append(view, [entry('label', 'l1', 'a1', { targetId: 'u1', label: 'start' })]);
    expect(view.appended[0]!.graph!.labels).toEqual({ u1: 'start' });
    await append(view, [entry('session_info', 'n1', 'l1', { name: 'Refactor plan' })]);
    expect(view.appended[1]!.graph!.sessionName).toBe('Refactor plan');
    expect(view.graph.sessionName).toBe('Refactor plan');
    await append(view, [entry('label', 'l2', 'n1', { targetId: 'u1' })]);
    expect(view.appended[2]!.graph!.labels).toEqual({ u1: null });
    await expectFresh(view);
  });

  it('a burst of 20 appends: 20 deltas, numbered in order, none merged away', async () => {
    const view = await openView(base());
    let parent = 'a1';
    for (let i = 0; i < 20; i++) {
      const id = `b${i}`;
      await append(view, [i % 2 ? assistant(id, parent, `reply ${i}`) : user(id, parent, `ask ${i}`)]);
      parent = id;
    }
    expect(view.appended.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(view.appended.map((e) => e.graph!.entries.ids)).toEqual(Array.from({ length: 20 }, (_, i) => [`b${i}`]));
    await expectFresh(view);
  });

  it('a line still being written sends nothing (no fetch for the view); once whole, its delta', async () => {
    const view = await openView(base());
    const line = JSON.stringify(user('u2', 'a1', 'written in two parts'));
    appendFileSync(view.path, line.slice(0, 20));
    await app!.catalog.followChanges([view.path]);
    expect(view.appended).toEqual([]);
    appendFileSync(view.path, `${line.slice(20)}\n`);
    await app!.catalog.followChanges([view.path]);
    expect(view.appended.map((e) => [e.seq, e.graph?.entries.ids])).toEqual([[1, ['u2']]]);
  });

  it('a truncated and rewritten file is a reset, said once', async () => {
    const view = await openView([...base(), user('u2', 'a1', 'q2')]);
    writeFileSync(view.path, jsonl([header('live', '/p'), user('z1', null, 'all new')]));
    await app!.catalog.followChanges([view.path]);
    const resets = view.appended.filter((e) => e.reset !== undefined);
    expect(resets).toHaveLength(1);
    expect(view.appended.filter((e) => e.graph)).toHaveLength(0);
  });

  it.each([false, true])(
    'a big generated session (lazy graph; offload %s) follows by deltas too',
    async (offload) => {
      const view = await openView({ bytes: 6 * 1024 * 1024 }, offload);
      expect(view.graph.entries.length).toBeGreaterThan(1000);
      const leaf = view.graph.leafId!;
      await append(view, [user('big1', leaf, 'appended to a big one'), assistant('big2', 'big1', 'and answered')]);
      expect(view.appended.at(-1)!.graph!.entries.ids).toEqual(['big1', 'big2']);
      expect(view.graph.entries.at(-1)).toMatchObject({ id: 'big2', preview: 'and answered' });
      await expectFresh(view);
    },
    60_000,
  );

  it('with the graph and context built in a worker (serve), the answers are numbered and followed alike', async () => {
    const view = await openView(base(), true);
    await append(view, [user('u2', 'a1', 'second question')]);
    expect(view.contexts.map((c) => [c.base, c.seq])).toEqual([[0, 1]]);
    await expectFresh(view);
  });
});
