/**
 * What one open session last sent to the views that follow it, so that the next change is sent as
 * a delta (live-delta.ts) rather than fetched whole: the entries, graph facts and context as of
 * change `seq`. Owned by the OpenSession; changes are numbered so a view can tell it missed one.
 */
import type { Entry } from '../core';
import type { ContextViewDto } from '../shared/context-dto';
import type { EntryNodesDto } from '../shared/entry-nodes';
import type { GraphDeltaDto } from '../shared/live-dto';
import type { EncodedJson } from './encoded-json';
import { graphDelta, type GraphFacts } from './live-delta';

/** A change as the feed numbers it: a delta, or a reset (what a view holds is wrong: fetch again). */
export type LiveChange = { seq: number; graph: GraphDeltaDto } | { seq: number; reset: string };

interface Sent {
  /** The index generation (a re-read file is another). */
  generation: number;
  count: number;
  /** Id and line of the last entry (a replaced provisional last line changes it); undefined: not read. */
  last: string | null | undefined;
  /** The graph facts as sent (null: not known, the next change sends them whole). */
  facts: GraphFacts | null;
}

function lastOf(entries: readonly Entry[], count: number): string | null {
  const e = count > 0 ? entries[count - 1] : undefined;
  return e ? `${e.id}@${e.line}` : null;
}

export class LiveFeed {
  /** The number of the last change sent (0: none yet). */
  seq = 0;
  private sent: Sent | null = null;
  /** The context last sent or answered at the current leaf and detected profile, with the change it includes. */
  private context: { seq: number; view: ContextViewDto | EncodedJson<ContextViewDto> } | null = null;

  /** Where the session stands when opened (its entry objects are not made for this). */
  start(generation: number, count: number): void {
    this.sent = { generation, count, last: undefined, facts: null };
  }

  /**
   * The change from what was last sent to `entries` (null: none). `facts` and `nodes` are asked for
   * only when entries changed; without a start, the first call only notes where the session stands.
   */
  change(
    generation: number,
    entries: readonly Entry[],
    facts: () => GraphFacts,
    nodes: (from: number) => EntryNodesDto,
  ): LiveChange | null {
    const count = entries.length;
    const sent = this.sent;
    const now: Sent = { generation, count, last: lastOf(entries, count), facts: null };
    if (!sent) {
      this.sent = now;
      return null;
    }
    if (sent.generation !== generation) {
      this.sent = now;
      this.context = null;
      return { seq: ++this.seq, reset: 'the file was truncated or rewritten' };
    }
    const last = sent.last === undefined ? lastOf(entries, sent.count) : sent.last;
    if (sent.count === count && last === now.last) return null;
    // A provisional last line taken back (and perhaps written whole since) is sent again.
    let from = Math.min(sent.count, count);
    if (from === sent.count && from > 0 && lastOf(entries, from) !== last) from--;
    now.facts = facts();
    const graph = graphDelta(sent.facts, now.facts, from, nodes(from));
    this.sent = now;
    return { seq: ++this.seq, graph };
  }

  /** A graph answered at the current state (session.open, default view): the next change sends only what differs. */
  answered(generation: number, entries: readonly Entry[], facts: GraphFacts): number {
    const s = this.sent;
    const last = lastOf(entries, entries.length);
    if (s && s.generation === generation && s.count === entries.length && (s.last ?? last) === last) {
      s.last = last;
      s.facts = facts;
    }
    return this.seq;
  }

  /** A context view answered or sent at change `seq` (current leaf, detected profile): the base of the next context change. */
  contextAt(seq: number, view: ContextViewDto | EncodedJson<ContextViewDto>): void {
    this.context = { seq, view };
  }

  /** The context the next context change is a delta of (null: none was asked for, nothing to keep current). */
  contextBase(): { seq: number; view: ContextViewDto | EncodedJson<ContextViewDto> } | null {
    return this.context;
  }
}
