/**
 * The core facade: parse a session, read it under a profile (leaf, path, context, labels, name),
 * list and build its tree, plan forks. PURE: no I/O, no Node APIs.
 */
import { caContext, h3Context, IssueSink } from './rules/context';
import { computeLabels, sessionName } from './rules/labels';
import { caLeafId, currentLeaf } from './rules/leaf';
import { caWalk, h3Walk, type EntrySeq, type PathResult } from './rules/path';
import { typeIndex } from './index/type-index';
import { detectProfile } from './rules/profile';
import { indexById, lastEntry } from './rules/tree';
import type { Issue, ParsedSession, Profile } from './types';

export * from './types';
export { parseSession, parseSessionText, splitLines, ISSUE_KIND_TO_PI, H3_LOAD_ERRORS, type RawLine, type ParseOptions } from './rules/parse';
export { detectProfile, openProblem, PROFILE_RULES, type OpenProblem } from './rules/profile';
export { listTreeEntries, buildTree, indexById, entriesFor, type TreeEntry, type Tree } from './rules/tree';
export { planFork, type ForkRequest, type ForkEnv, type ForkPlan, type ForkErrorKind } from './rules/fork';
export { encodeCwd, sessionFileName } from './rules/naming';
export { SessionIndexer, type IndexerOptions, type Decode } from './index/session-index';
export { BodyError, type LineSource, type BodyCacheOptions } from './index/line-source';
export { IndexedEntry, isIndexedEntry } from './index/indexed-entry';
export { scanEnvelope, newEnvelopeScan, type EnvelopeScan } from './index/envelope-scan';
export { computeLabels, sessionName, type LabelState } from './rules/labels';
export type { ProjectedEntry, CaContext, H3Context } from './rules/context';

// What repo, the CLI and the bench use beyond reading a session: previews and usage of one entry
// (previews.ts skims bodies for them), the context view and fork preview, lineage, search rules.
export { previewEntry, PREVIEW_SKIM_KEYS, type EntryPreview, type CheckpointKind } from './rules/entry-preview';
export { entryUsageFact, ledgerOf, usageFactOf, usageRecordOf, type UsageFact, type CostLedger } from './rules/cost-ledger';
export { isPlainRecord } from './rules/parse';
export { TOO_DEEP_MARKER } from './rules/json-depth';
export { buildContextView, type ContextView, type ContextViewOptions } from './rules/context-view';
export { previewFork, type ForkPreview } from './rules/fork-preview';
export { forkPoint } from './rules/lineage';
export { JsonSkimmer, type SkimKeys } from './index/json-skim';
export { parseSearchQuery, makeSnippet, matchEntry, requiredSubstrings, termsMetBySession, type SearchQuery, type Snippet } from './search/search-query';
export { searchFields, type SearchRole } from './search/search-text';

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
  entries: [], issues: [], length: 0, entryAt: () => { throw new RangeError('empty path'); }, typeAt: () => { throw new RangeError('empty path'); }, ids: () => [],
};

/**
 * The leaf and the path of readSession without the context: envelope work only (no body is read
 * unless a compaction on an H3 path needs it), so switching branches in a huge session is cheap.
 */
export function readPath(s: ParsedSession, opts: ReadOptions = {}): PathReading {
  const profile = opts.profile ?? detectProfile(s);
  const issues: Issue[] = [...s.issues];
  const byId = indexById(s, profile);
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
      if (start) walk = caWalk(start, byId);
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
    if (start) walk = h3Walk(start, byId);
  }
  issues.push(...walk.issues);
  const w = walk;
  return { profile, leafId, path: w, issues, pathIds: () => w.ids() };
}

/** readSession plus the per-entry projection (for "what the model sees" views). */
export function readSessionDetailed(s: ParsedSession, opts: ReadOptions = {}): DetailedReading {
  const known = s.issues.length;
  const { profile, leafId, path, issues, pathIds } = readPath(s, opts);
  const sink = new IssueSink();
  const { contextEntries, projection, context } = profile === 'ca' ? caContext(path, sink, typeIndex(s, 'ca').messagesWithout) : h3Context(path.entries, sink);

  const labelState = computeLabels(s, profile);
  for (const e of labelState.malformed) sink.malformed(e, 'has a label that is not a string');
  const labels: Record<string, string> = {};
  // defineProperty: a target id of "__proto__" must stay a plain key.
  for (const [k, v] of labelState.labels) Object.defineProperty(labels, k, { value: v, enumerable: true, writable: true, configurable: true });
  issues.push(...sink.issues);
  // Bodies read just now may have reported issues of their lines (too_deep) to the session.
  for (let k = known; k < s.issues.length; k++) issues.push(s.issues[k]!);

  return {
    profile,
    leafId,
    pathIds: pathIds(),
    contextEntryIds: contextEntries.map((e) => e.id),
    context,
    labels,
    sessionName: sessionName(s, profile),
    issues,
    projection: projection.map((p) => ({ entryId: p.entry.id, messages: p.messages })),
  };
}

/** Read a session under a profile (default: detected). Never throws. */
export function readSession(s: ParsedSession, opts: ReadOptions = {}): SessionReading {
  const { projection: _projection, ...reading } = readSessionDetailed(s, opts);
  return reading;
}
