/**
 * Keeps the context view of a followed session current: after each change of a session whose
 * context was asked for (at its current leaf and detected profile), the context is built again
 * (where session.context builds it: a worker thread where there is one) and sent as a delta of the
 * one sent before (`session.contextChanged`). One build per session at a time, at most one a second;
 * changes that arrive meanwhile are taken together by the next build (every one is in its delta).
 */
import type { ContextViewDto } from '../shared/context-dto';
import type { SessionContextChangedDto } from '../shared/live-dto';
import { EncodedJson } from './encoded-json';
import type { EventBus } from './event-bus';
import { contextDelta } from './live-delta';
import type { OpenSession } from './open-session';

/** Least time between two builds of one session's context while it is written to (a long path's build is seconds of a worker). */
export const CONTEXT_GAP_MS = 1000;

export interface LiveContextDeps {
  bus: EventBus;
  /** The open session listed as `sessionId`, if it is open (no I/O). */
  openOf(sessionId: string): Promise<OpenSession | undefined>;
  /** session.context at the current leaf and detected profile (it notes itself as the feed's next base). */
  build(sessionId: string): Promise<ContextViewDto>;
}

function valueOf(view: ContextViewDto | EncodedJson<ContextViewDto>): ContextViewDto {
  return view instanceof EncodedJson ? view.value() : view;
}

/** The worker's own number, which its answers end with (open-session.ts writes `liveSeq` last). */
const OWN_SEQ = /,"liveSeq":\d+\}$/;

/**
 * `view` (JSON bytes or a value) with `liveSeq` set. Bytes are not parsed: the number the worker
 * wrote last (its own feed's) is replaced, the same bytes an answer made here would be.
 */
export function withLiveSeq<T extends object>(view: T, seq: number): T {
  if (view instanceof EncodedJson) {
    const bytes = view.bytes;
    const end = bytes.lastIndexOf(0x7d); // the closing brace
    const tail = bytes.subarray(Math.max(0, end - 32), end + 1).toString('latin1');
    const own = OWN_SEQ.exec(tail);
    const cut = own ? end + 1 - own[0].length : end;
    const add = Buffer.from(`${own || end > 1 ? ',' : ''}"liveSeq":${seq}}`, 'latin1');
    return new EncodedJson(Buffer.concat([bytes.subarray(0, cut), add])) as T;
  }
  return { ...view, liveSeq: seq };
}

export class LiveContexts {
  private readonly building = new Map<string, { again: boolean }>();
  private readonly stop: () => void;

  constructor(private readonly deps: LiveContextDeps) {
    this.stop = deps.bus.subscribe((event, payload) => {
      if (event !== 'session.appended') return;
      const p = payload as { sessionId: string; seq?: number; graph?: unknown };
      if (p.seq !== undefined && p.graph) this.changed(p.sessionId);
    });
  }

  close(): void {
    this.stop();
  }

  /** Settles when no context of `sessionId` is being built (tests). */
  async idle(): Promise<void> {
    while (this.building.size > 0) await new Promise((r) => setTimeout(r, 5));
  }

  private changed(sessionId: string): void {
    const running = this.building.get(sessionId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.building.set(sessionId, state);
    void (async () => {
      try {
        while (state.again) {
          state.again = false;
          const started = performance.now();
          await this.send(sessionId);
          const wait = CONTEXT_GAP_MS - (performance.now() - started);
          if (state.again && wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      } catch {
        // The file went away or cannot be read: the view hears it from the listing, or fetches again.
      } finally {
        this.building.delete(sessionId);
      }
    })();
  }

  private async send(sessionId: string): Promise<void> {
    const open = await this.deps.openOf(sessionId);
    const base = open?.feed.contextBase();
    if (!open || !base || base.seq >= open.feed.seq) return;
    const next = valueOf(await this.deps.build(sessionId));
    const seq = next.liveSeq ?? open.feed.seq;
    // The parsed view is the next base: it is not parsed again for the change after.
    if (open.feed.contextBase()?.seq === seq) open.feed.contextAt(seq, next);
    const event: SessionContextChangedDto = {
      sessionId,
      seq,
      base: base.seq,
      context: contextDelta(valueOf(base.view), next),
    };
    this.deps.bus.emit('session.contextChanged', event);
  }
}
