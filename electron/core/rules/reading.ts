/**
 * A session read under one profile: its leaf, path, context, labels and name, with every issue
 * found on the way. PURE.
 */
import { caContext, h3Context, IssueSink } from './context';
import { lastEntry } from './entries';
import { computeLabels, sessionName } from './labels';
import { caLeafId, currentLeaf } from './leaf';
import { caWalk, h3Walk, type EntrySeq, type PathResult } from './path';
import { detectProfile } from './profile';
import type { Issue, ParsedSession, Profile } from '../types';

export interface SessionReading {
  profile: Profile;
  leafId: string | null;
  /** Root → leaf (H3: truncated at checkpoints, exactly like Session.getBranch()). */
  pathIds: string[];
  /** Like buildContextEntries() of that profile. */
  contextEntryIds: string[];
  /**
   * CA: {messages, thinkingLevel, model} as pi-coding-agent 1.6.0 buildSessionContext().
   * H3: {thinkingLevel, model, activeToolNames, messages} as pi-agent-core 0.82.1 Session.buildContext().
   */
  context: unknown;
  /** targetId → label (the profile's trim rule). */
  labels: Record<string, string>;
  sessionName: string | undefined;
  /** Parse issues + those found while reading (cycle, dangling parent, unknown leaf …). */
  issues: Issue[];
}

export interface ReadOptions {
  profile?: Profile;
  /** undefined = the profile's current leaf; null = before the first entry; a string = hypothetical leaf. */
  leafId?: string | null;
}

export interface DetailedReading extends SessionReading {
  /** Every context entry with the messages it contributes (0 for state-only or omitted entries). */
  projection: { entryId: string; messages: unknown[] }[];
}

function unknownLeaf(leafId: string, profile: Profile): Issue {
  const rule = profile === 'ca' ? 'CA builds the context from the last entry instead' : 'H3 has no path for it';
  return { line: 0, kind: 'unknown_leaf', message: `leaf ${leafId} is not in the file; ${rule}` };
}

export interface PathReading {
  profile: Profile;
  leafId: string | null;
  /**
   * Root → leaf (H3: truncated at checkpoints): its length, the k-th entry and its type, or the
   * whole list (for an indexed session, entries are created as they are asked for).
   */
  readonly path: EntrySeq;
  /** Parse issues + those found choosing the leaf and walking (cycle, dangling parent, unknown leaf). */
  issues: Issue[];
  /** The path's ids, root first (cheap for indexed sessions: no entry object is touched). */
  pathIds(): string[];
}

const NO_PATH: PathResult = {
  entries: [],
  issues: [],
  length: 0,
  entryAt: () => {
    throw new RangeError('empty path');
  },
  typeAt: () => {
    throw new RangeError('empty path');
  },
  ids: () => [],
};

/**
 * The leaf and the path of readSession without the context: envelope work only (no body is read
 * unless a compaction on an H3 path needs it), so switching branches in a huge session is cheap.
 */
export function readPath(s: ParsedSession, opts: ReadOptions = {}): PathReading {
  const profile = opts.profile ?? detectProfile(s);
  const issues: Issue[] = [...s.issues];
  const entries = s.entriesOf(profile);
  const byId = entries.byId;
  let leafId: string | null;
  let walk = NO_PATH;
  if (profile === 'ca') {
    leafId = opts.leafId === undefined ? caLeafId(s) : opts.leafId;
    if (leafId !== null) {
      // buildSessionPath: an unknown (or empty) leaf id falls back to the last entry.
      let start = leafId ? byId.get(leafId) : undefined;
      if (!start) {
        if (opts.leafId !== undefined) issues.push(unknownLeaf(leafId, profile));
        start = lastEntry(s, 'ca');
      }
      if (start) walk = caWalk(start, entries);
    }
  } else {
    if (opts.leafId === undefined) {
      const current = currentLeaf(s, 'h3', byId);
      leafId = current.leafId;
      issues.push(...current.issues);
    } else {
      leafId = opts.leafId;
      if (leafId !== null && !byId.has(leafId)) issues.push(unknownLeaf(leafId, profile));
    }
    const start = leafId === null ? undefined : byId.get(leafId);
    if (start) walk = h3Walk(start, entries);
  }
  issues.push(...walk.issues);
  const w = walk;
  return { profile, leafId, path: w, issues, pathIds: () => w.ids() };
}

/** The profile's labels as a plain object (a label pi cannot read is reported to `sink`). */
export function readLabels(s: ParsedSession, profile: Profile, sink: IssueSink): Record<string, string> {
  const labelState = computeLabels(s, profile);
  for (const e of labelState.malformed) sink.malformed(e, 'has a label that is not a string');
  const labels: Record<string, string> = {};
  // defineProperty: a target id of "__proto__" must stay a plain key.
  for (const [k, v] of labelState.labels)
    Object.defineProperty(labels, k, { value: v, enumerable: true, writable: true, configurable: true });
  return labels;
}

/** Issues that bodies read since the session had `known` issues reported to it (too_deep). */
export function issuesSince(s: ParsedSession, known: number): Issue[] {
  return s.issues.slice(known);
}

/**
 * The reading every variant shares (leaf, path, labels, name, issues) around `select`, which picks
 * the context's entries from the path and may build more (the messages); its issues join the rest.
 */
export function readAround<T extends { contextEntries: readonly { id: string }[] }>(
  s: ParsedSession,
  opts: ReadOptions,
  select: (path: EntrySeq, sink: IssueSink, profile: Profile) => T,
): { reading: Omit<SessionReading, 'context'>; selected: T } {
  const known = s.issues.length;
  const { profile, leafId, path, issues, pathIds } = readPath(s, opts);
  const sink = new IssueSink();
  const selected = select(path, sink, profile);
  const labels = readLabels(s, profile, sink);
  issues.push(...sink.issues, ...issuesSince(s, known));
  const reading = {
    profile,
    leafId,
    pathIds: pathIds(),
    contextEntryIds: selected.contextEntries.map((e) => e.id),
    labels,
    sessionName: sessionName(s, profile),
    issues,
  };
  return { reading, selected };
}

/** readSession plus the per-entry projection (for "what the model sees" views). */
export function readSessionDetailed(s: ParsedSession, opts: ReadOptions = {}): DetailedReading {
  const { reading: r, selected } = readAround(s, opts, (path, sink, profile) =>
    profile === 'ca' ? caContext(path, sink, s.entriesOf('ca').messagesWithout) : h3Context(path.entries, sink),
  );
  // Key order is the CLI's JSON order: context after contextEntryIds.
  return {
    profile: r.profile,
    leafId: r.leafId,
    pathIds: r.pathIds,
    contextEntryIds: r.contextEntryIds,
    context: selected.context,
    labels: r.labels,
    sessionName: r.sessionName,
    issues: r.issues,
    projection: selected.projection.map((p) => ({ entryId: p.entry.id, messages: p.messages })),
  };
}

/** Read a session under a profile (default: detected). Never throws. */
export function readSession(s: ParsedSession, opts: ReadOptions = {}): SessionReading {
  const { projection: _projection, ...reading } = readSessionDetailed(s, opts);
  return reading;
}
