/**
 * A followed session's changes, applied to the graph and context the store holds: main sends each
 * append as a delta (`session.appended`, `session.contextChanged`, numbered per open session), so
 * an append costs what it adds. Deltas are applied one by one, in order; one that arrives while a
 * graph or context is being fetched waits for it and is applied after (if the answer did not
 * already include it). A missed number, a reset (the file was rewritten) or a session main no
 * longer holds open is fetched again once.
 */
import {
  applyContextDelta,
  applyGraphDelta,
  type ContextViewDto,
  type SessionAppendedDto,
  type SessionContextChangedDto,
  type SessionGraphDto,
} from '../lib/shared';
import { shareIds } from '../model/context-order';
import type { ActionContext } from './action-context';

export interface LiveActions {
  /** `session.appended` (any session: others are ignored). */
  liveAppended(change: SessionAppendedDto): void;
  /** `session.contextChanged` (any session). */
  liveContextChanged(change: SessionContextChangedDto): void;
  /** A graph answer landed: the deltas that came meanwhile are applied to it. */
  graphLanded(): void;
  /** A context answer landed: likewise. */
  contextLanded(): void;
  /** Stops a reload loop (the app's events are unsubscribed). */
  stopLive(): void;
}

/** Least time between two whole re-reads of the open session while lines keep arriving. */
const RELOAD_GAP_MS = 100;
/** Deltas kept while an answer is awaited (more than this many appends during one fetch: fetch again). */
const KEEP = 256;

export function createLiveActions({ s, actions }: ActionContext): LiveActions {
  let graphs: SessionAppendedDto[] = [];
  let contexts: SessionContextChangedDto[] = [];
  // Whole re-reads: at most one in flight and one queued, RELOAD_GAP_MS apart.
  let reloading = false;
  let dirty = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  async function runReloads() {
    timer = null;
    reloading = true;
    try {
      while (dirty) {
        dirty = false;
        await actions.reloadGraph();
        if (dirty) await new Promise<void>((r) => (timer = setTimeout(r, RELOAD_GAP_MS)));
        timer = null;
      }
    } finally {
      reloading = false;
    }
  }

  function reload() {
    dirty = true;
    if (!reloading && timer === null) timer = setTimeout(() => void runReloads(), 0);
  }

  /** Applies the kept graph deltas the held graph does not include yet, in order. */
  function drainGraphs() {
    const state = s();
    const held = state.graph;
    if (!held || state.opening || held.sessionId !== state.openSessionId) return;
    const waiting = graphs.filter((g) => g.sessionId === held.sessionId && g.seq! > (held.liveSeq ?? 0));
    graphs = [];
    let graph: SessionGraphDto = held;
    for (const change of waiting) {
      const override = state.profileOverride;
      const next: SessionGraphDto | null =
        change.seq === (graph.liveSeq ?? 0) + 1 && (!override || override === change.graph!.profile)
          ? applyGraphDelta(graph, change.graph!, change.seq!, change.sizeBytes)
          : null;
      if (!next) return reload();
      graph = next;
    }
    if (graph !== held) state.setGraph(graph);
  }

  function drainContexts() {
    const state = s();
    const held = state.contextView;
    if (!held || state.contextLoading || held.sessionId !== state.openSessionId) return;
    const waiting = contexts.filter((c) => c.sessionId === held.sessionId && c.seq > (held.liveSeq ?? 0));
    contexts = [];
    // A what-if leaf or another profile is not what main keeps current: that view is asked for again.
    if (waiting.length > 0 && (state.whatIfLeaf || state.profileOverride)) return void actions.loadContext();
    let view: ContextViewDto = held;
    for (const change of waiting) {
      const next: ContextViewDto | null =
        change.base === (view.liveSeq ?? 0) ? applyContextDelta(view, change.context, change.seq) : null;
      if (!next) return void actions.loadContext();
      view = next;
    }
    if (view !== held) state.setContextView(shareIds(view, s().graph));
  }

  return {
    liveAppended(change) {
      if (change.sessionId !== s().openSessionId) return;
      if (change.reset !== undefined || change.seq === undefined || !change.graph) {
        graphs = [];
        contexts = [];
        return reload();
      }
      graphs.push(change);
      if (graphs.length > KEEP) {
        graphs = [];
        return reload();
      }
      drainGraphs();
    },
    liveContextChanged(change) {
      if (change.sessionId !== s().openSessionId) return;
      contexts.push(change);
      if (contexts.length > KEEP) contexts.shift();
      drainContexts();
    },
    graphLanded: drainGraphs,
    contextLanded: drainContexts,
    stopLive() {
      dirty = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
