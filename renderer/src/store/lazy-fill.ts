/**
 * Filling a `pending` graph (session.open answered from the index): the previews of the nodes
 * drawn, asked for in batches shortly after they appear, and then every node's flags (pi's /tree
 * filters need them) from one session.flags pass, which replaces the graph's nodes (those appended
 * since keep theirs: they came with their flags).
 */
import { unpackEntryNodes, type Api, type SessionGraphDto } from '../lib/shared';
import type { Check } from './action-context';
import type { CanopyStore } from './index';

/** Ids asked for in one session.previews call (the validator's bound is 5000). */
const BATCH = 400;
/** Nodes that appear together (one pan, one zoom) go in one request. */
const DEBOUNCE_MS = 40;
const FLAGS_RETRIES = 3;
const FLAGS_WAIT_MS = 1000;

export interface LazyFill {
  /** These drawn nodes have no preview yet: ask for them soon. */
  want(entryIds: readonly string[]): void;
  /** Resolves once the first drawn nodes' previews have come (at most FLAGS_WAIT_MS): what else reads bodies waits for it. */
  previewsFirst(): Promise<void>;
  /** Reads the flags of `graph` (just set) and replaces its nodes when they come. */
  flags(graph: SessionGraphDto, stillCurrent: () => boolean): Promise<void>;
}

export function createLazyFill(api: Api, store: CanopyStore, check: Check): LazyFill {
  const s = store.getState;
  const queued = new Set<string>();
  const asked = new Set<string>();
  let askedFor: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = 0;
  let idle: Array<() => void> = [];

  async function send() {
    timer = null;
    const sessionId = s().openSessionId;
    if (!sessionId || !s().graph?.pending) {
      queued.clear();
      return settle();
    }
    const ids = [...queued];
    queued.clear();
    inFlight++;
    try {
      for (let i = 0; i < ids.length; i += BATCH) {
        const r = check(await api['session.previews']({ sessionId, entryIds: ids.slice(i, i + BATCH) }));
        if ('data' in r) s().addPreviews(sessionId, r.data);
      }
    } finally {
      inFlight--;
      settle();
    }
  }

  function settle(): void {
    if (timer !== null || inFlight > 0) return;
    const waiting = idle;
    idle = [];
    for (const w of waiting) w();
  }

  /**
   * The flags pass and the context read many bodies: they wait until the previews of the first
   * drawn nodes have come (main answers one request at a time), or FLAGS_WAIT_MS at most.
   */
  async function previewsFirst(): Promise<void> {
    await new Promise((r) => setTimeout(r, DEBOUNCE_MS * 2));
    if (timer === null && inFlight === 0) return;
    await Promise.race([new Promise<void>((r) => idle.push(r)), new Promise((r) => setTimeout(r, FLAGS_WAIT_MS))]);
  }

  return {
    previewsFirst,
    want(entryIds) {
      const sessionId = s().openSessionId;
      // The first nodes drawn of a session go at once (they are what the user looks at); later
      // ones are gathered over DEBOUNCE_MS (one pan or zoom, one request).
      const first = askedFor !== sessionId;
      if (first) {
        asked.clear();
        askedFor = sessionId;
      }
      for (const id of entryIds) {
        if (asked.has(id)) continue;
        asked.add(id);
        queued.add(id);
      }
      if (queued.size > 0 && timer === null) timer = setTimeout(() => void send(), first ? 0 : DEBOUNCE_MS);
    },
    async flags(graph, stillCurrent) {
      if (!graph.pending) return;
      // The graph fetched (not one since): appends applied to it keep it the same graph.
      const same = () => stillCurrent() && s().graph?.sessionId === graph.sessionId && s().graph?.pending === true;
      await previewsFirst();
      if (!same()) return;
      let r = check(await api['session.flags']({ sessionId: graph.sessionId }));
      // Main cancels a flags pass when another session opens (in serve, perhaps another tab's):
      // while this graph is still the one shown, ask again (bounded, so two tabs cannot ping-pong).
      for (let retry = 0; retry < FLAGS_RETRIES && 'error' in r && r.error.code === 'cancelled' && same(); retry++) {
        r = check(await api['session.flags']({ sessionId: graph.sessionId }));
      }
      const current = s().graph;
      if (!('data' in r) || !same() || !current) return;
      // Appends applied while the pass ran came with their flags: the pass's nodes are the first ones.
      const flagged = unpackEntryNodes(r.data.entries);
      if (flagged.length > current.entries.length || flagged.some((n, i) => n.id !== current.entries[i]!.id)) return;
      const { pending: _pending, ...rest } = current;
      s().setGraph({ ...rest, entries: flagged.concat(current.entries.slice(flagged.length)) });
      // The filter now hides what it could not judge before: the layout moved, keep the focus in view.
      const focus = s().selectedEntryId ?? graph.leafId;
      if (focus) s().requestFocus(focus);
    },
  };
}
