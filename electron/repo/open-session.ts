/**
 * One open session and everything about it: its index and live tail (LiveSession), its bodies'
 * previews and usages (SessionBodies), its packed graph nodes, the payloads last cut, and its
 * detected profile. It answers the per-session channels itself (graph, previews, flags, entry,
 * payload, context, fork plan, fork point); the store (session-store.ts) owns its lifetime.
 */
import { dirname } from 'node:path';
import {
  buildContextView,
  computeLabels,
  detectProfile,
  previewEntry,
  previewFork,
  readForGraph,
  readSessionDetailed,
  type Entry,
  type EntryPreview,
  type ForkPlan,
  type ParsedSession,
  type Profile,
} from '../core';
import type { ContextViewDto, ForkPreviewDto, ForkRequestDto } from '../shared/context-dto';
import type { EntryDetailDto, PayloadPageDto, SessionRowDto } from '../shared/dto';
import { packNodes, type EntryNodesDto, type SessionGraphWireDto } from '../shared/entry-nodes';
import { packEntryStates } from '../shared/entry-states';
import { CanopyError } from '../shared/errors';
import { entryBody, payloadPage, PayloadScans, type PayloadRequest } from './entry-payload';
import { forkEnv, planForkOf } from './fork';
import { GraphNodes } from './graph-nodes';
import { LiveSession, type IndexOptions } from './live';
import type { GraphFacts } from './live-delta';
import { LiveFeed, type LiveChange } from './live-feed';
import { indexPreview } from './session-bodies';
import { SessionBodies } from './session-bodies';
import type { OpenTask } from './session-tasks';

/** What a fork's new file is named and timed with (the preview's reservation). */
export interface ForkNaming {
  sessionId: string;
  now: string;
}

export class OpenSession {
  readonly nodes = new GraphNodes();
  /** The heavy payloads of the entries last shown (entry-payload.ts). */
  readonly payloads = new PayloadScans();
  /** What the views following this session were last sent (live-feed.ts). */
  readonly feed = new LiveFeed();
  /** The profile detected for the session view it was detected on (detected once per view). */
  private detected: { of: ParsedSession; profile: Profile } | null = null;

  private constructor(
    readonly live: LiveSession,
    readonly bodies: SessionBodies,
  ) {}

  /** Indexes the file at `path`; with `skimBodies`, its bodies are skimmed in the same pass (the first previews read nothing more). */
  static async open(path: string, options: IndexOptions, skimBodies = false): Promise<OpenSession> {
    let live: LiveSession | null = null;
    const bodies = new SessionBodies(path, undefined, (offset, length) => {
      if (!live) throw new Error(`${path} is not indexed yet`);
      return live.readBytes(offset, length);
    });
    live = await LiveSession.open(path, skimBodies ? { ...options, onLine: bodies.skimDuringIndex() } : options);
    const open = new OpenSession(live, bodies);
    // Where the file stands when opened: the first change is a delta of it (no entry object is made here).
    open.feed.start(live.generation, live.entryCount());
    return open;
  }

  get path(): string {
    return this.live.path;
  }

  /** The memory held: index, previews and packed nodes. */
  get bytes(): number {
    return this.live.indexBytes + this.bodies.bytes + this.nodes.bytes;
  }

  /** pi's profile for `session` (this session's current view), detected once per view. */
  profileOf(session: ParsedSession): Profile {
    if (this.detected?.of !== session) this.detected = { of: session, profile: detectProfile(session) };
    return this.detected.profile;
  }

  /** The graph answer; `lazy`: from the index alone (`pending`), else with every preview. */
  async graph(
    session: ParsedSession,
    row: SessionRowDto,
    task: OpenTask,
    opts: { lazy: boolean; profile?: Profile | undefined; leafId?: string | null | undefined },
  ): Promise<SessionGraphWireDto> {
    const entries = opts.lazy ? this.nodes.indexed(session.entries) : await this.flags(session, task);
    const detected = this.profileOf(session);
    // Context ids without the context's messages: those bodies (screenshots …) wait for the context view.
    const reading = readForGraph(session, {
      profile: opts.profile ?? detected,
      ...(opts.leafId !== undefined ? { leafId: opts.leafId } : {}),
    });
    const facts = factsOf(reading);
    // The default view is what live changes are deltas of: the next one sends only what differs from this answer.
    const liveSeq =
      (opts.profile ?? detected) === detected && opts.leafId === undefined
        ? this.feed.answered(this.live.generation, session.entries, facts)
        : this.feed.seq;
    return {
      sessionId: row.sessionId,
      cwd: row.cwd,
      path: this.path,
      header: { ...(session.header ?? {}) },
      profile: reading.profile,
      detectedProfile: detected,
      entries,
      leafId: reading.leafId,
      pathIds: reading.pathIds,
      contextEntryIds: reading.contextEntryIds,
      labels: facts.labels,
      sessionName: facts.sessionName,
      issues: [...facts.issues],
      sizeBytes: row.sizeBytes,
      ...(opts.lazy ? { pending: true as const } : {}),
      // Last: a worker's answer (bytes) gets this thread's number written over its own (live-context.ts).
      liveSeq,
    };
  }

  /** Every node with its preview and body flags: one sequential pass over the bodies, then only appended entries. */
  async flags(session: ParsedSession, task: OpenTask): Promise<EntryNodesDto> {
    const onProgress = task.progress('previews');
    const previews = await this.bodies.previews(session, {
      signal: task.signal,
      ...(onProgress ? { onProgress } : {}),
    });
    const all: EntryPreview[] = session.entries.map((e, i) => previews[i] ?? previewEntry(e));
    return this.nodes.packed(session.entries, all);
  }

  /** Previews of some entries (session.previews). */
  previews(session: ParsedSession, entryIds: string[]): Record<string, EntryPreview> {
    return this.bodies.byId(session, entryIds);
  }

  /** One entry's body (heavy payloads cut), label and children (entry.get). */
  entry(session: ParsedSession, sessionId: string, entryId: string): EntryDetailDto {
    let found: Entry | undefined;
    const children: string[] = [];
    for (const e of session.entries) {
      if (e.id === entryId) found = e;
      if (e.parentId === entryId) children.push(e.id);
    }
    if (!found) throw new CanopyError('not_found', `no entry ${entryId} in session ${sessionId}`);
    // The labels readSession reports, without building a context (that reads many bodies).
    const label = computeLabels(session, this.profileOf(session)).labels.get(entryId);
    const body = entryBody((offset, length) => this.live.readBytes(offset, length), this.payloads, found);
    return { sessionId, entryId, line: found.line, ...body, label: label ?? null, children };
  }

  /** A slice of one heavy payload of an entry (entry.payload). */
  payload(session: ParsedSession, sessionId: string, entryId: string, req: PayloadRequest): PayloadPageDto {
    // The later line wins for a duplicate id, as in entry().
    const e = session.entriesOf('ca').byId.get(entryId);
    if (!e) throw new CanopyError('not_found', `no entry ${entryId} in session ${sessionId}`);
    return payloadPage((offset, length) => this.live.readBytes(offset, length), this.payloads, e, req);
  }

  /** What reaches the model at a leaf, with the cost ledgers (session.context). */
  async context(
    session: ParsedSession,
    sessionId: string,
    profile?: Profile,
    leafId?: string | null,
  ): Promise<ContextViewDto> {
    const detected = this.profileOf(session);
    const reading = readSessionDetailed(session, {
      profile: profile ?? detected,
      ...(leafId !== undefined ? { leafId } : {}),
    });
    // The ledgers need every entry's usage: one pass over the file (shared with the graph's previews).
    const usageOf = await this.bodies.usageOf(session);
    const view = buildContextView(session, reading, { usageOf });
    const issues = reading.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message }));
    const liveSeq = this.feed.seq;
    const out = {
      sessionId,
      detectedProfile: detected,
      ...view,
      entries: packEntryStates(view.entries),
      issues,
      liveSeq,
    };
    if ((profile ?? detected) === detected && leafId === undefined) this.feed.contextAt(liveSeq, out);
    return out;
  }

  /**
   * What changed since the views were last sent (live-feed.ts): the new entries as graph nodes with
   * their previews and flags, and the default view's reading; null when nothing did.
   */
  liveChange(session: ParsedSession): LiveChange | null {
    const entries = session.entries;
    return this.feed.change(
      this.live.generation,
      entries,
      () => factsOf(readForGraph(session, { profile: this.profileOf(session) })),
      (from) => {
        const added = entries.slice(from);
        const read = this.bodies.byId(
          session,
          added.map((e) => e.id),
        );
        return packNodes(added, (i) => read[added[i]!.id] ?? indexPreview(added[i]!));
      },
    );
  }

  /** What a fork/clone would write, named as `naming` says (nothing is written). */
  forkPreview(session: ParsedSession, request: ForkRequestDto, naming: ForkNaming, profile?: Profile): ForkPreviewDto {
    const env = forkEnv(session, this.path, { newSessionId: () => naming.sessionId, now: () => new Date(naming.now) });
    const preview = previewFork(session, { ...request, profile: profile ?? this.profileOf(session) }, env);
    if (!preview.ok) return preview;
    return { ...preview, directory: dirname(env.sourcePath) };
  }

  /**
   * pi's plan for a fork/clone of this session (session-service.ts writes it): the preview's session
   * id, and the write's time, as pi names a file when it writes it (not when it was previewed).
   */
  forkPlan(session: ParsedSession, request: ForkRequestDto, naming: ForkNaming, profile?: Profile): ForkPlan {
    const options = {
      profile: profile ?? this.profileOf(session),
      newSessionId: () => naming.sessionId,
    };
    return planForkOf(session, this.path, request, options).plan;
  }
}

/** What the graph shows of a reading besides its nodes. */
function factsOf(reading: ReturnType<typeof readForGraph>): GraphFacts {
  return {
    profile: reading.profile,
    leafId: reading.leafId,
    pathIds: reading.pathIds,
    contextEntryIds: reading.contextEntryIds,
    labels: reading.labels,
    sessionName: reading.sessionName ?? null,
    issues: reading.issues.map((i) => ({ line: i.line, kind: i.kind, message: i.message })),
  };
}
