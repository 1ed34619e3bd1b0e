/**
 * Fork and clone plans: which header and entry objects a new session file holds. No I/O.
 *
 * CA mirrors pi-coding-agent 1.6.0: AgentSessionRuntime.fork (validation, "before" on a root
 * user message starts an empty session with parentSession) and
 * SessionManager.createBranchedSession (label entries dropped from the path, parents re-chained,
 * a compaction's firstKeptEntryId that named a dropped label re-pointed, current labels of kept
 * entries re-created with fresh ids and the timestamp of the change that set them).
 * H3 mirrors pi-agent-core 0.82.1 getEntriesToFork + JsonlSessionRepo.fork (verbatim copy of the
 * checkpoint-truncated path, or of every entry when no entry id is given).
 */
import { entryRole } from './entry-fields';
import { computeLabels } from './labels';
import { caLeafId, leafIdAfterEntry } from './leaf';
import { caWalk, h3Walk, type PathResult } from './path';
import { openProblem } from './profile';
import { entriesFor } from './entries';
import type { ForkErrorKind } from '../../shared/context-dto';
import type { Entry, ParsedSession, Profile, SessionHeader } from '../types';

export type { ForkErrorKind } from '../../shared/context-dto';

/** What to fork: the very shape of the contract's ForkRequestDto (test/repo/fork-request.test.ts checks both ways). */
export type ForkTarget =
  { kind: 'fork'; entryId: string; position: 'before' | 'at' } | { kind: 'clone'; leafId?: string | null };

/** A fork target and the profile it is read under. */
export type ForkRequest = ForkTarget & { profile: Profile };

export interface ForkEnv {
  sourcePath: string;
  newSessionId: string;
  /** ISO timestamp of the new header. */
  now: string;
  newEntryId: () => string;
  /**
   * Optional cwd for the new header. pi's CA resolves the source header's cwd with Node's
   * path.resolve (and uses process.cwd() when it is missing); the pure core cannot, so a caller
   * may pass the resolved value. Default: the source header's cwd as written ('' if missing).
   */
  cwd?: string;
}

export type ForkPlan =
  | { ok: true; header: SessionHeader; entries: Record<string, unknown>[]; leafId: string | null }
  | { ok: false; error: { kind: ForkErrorKind; message: string } };

type Rec = Record<string, unknown>;

/**
 * The new file's lines (each with its '\n') as pi serialises them: one JSON.stringify per line, so
 * a fork of a multi-GB session is written, and read back, a line at a time (one string of the whole
 * file would exceed V8's string limit). PURE.
 */
export function* forkFileLines(plan: Extract<ForkPlan, { ok: true }>): Generator<string> {
  yield `${JSON.stringify(plan.header)}\n`;
  for (const e of plan.entries) yield `${JSON.stringify(e)}\n`;
}

function refuse(kind: ForkErrorKind, message: string): ForkPlan {
  return { ok: false, error: { kind, message } };
}

function sourceCwd(s: ParsedSession, env: ForkEnv): string {
  if (env.cwd !== undefined) return env.cwd;
  const cwd = s.header?.cwd;
  return typeof cwd === 'string' ? cwd : '';
}

function cycleRefusal(walk: PathResult): ForkPlan | null {
  const cycle = walk.issues.find((i) => i.kind === 'cycle');
  return cycle ? refuse('invalid_session', `${cycle.message} (pi never finishes this walk)`) : null;
}

function isUserMessage(e: Entry): boolean {
  return e.type === 'message' && entryRole(e) === 'user';
}

export function planFork(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPlan {
  if (s.fatal || !s.header) return refuse('invalid_session', s.fatal?.message ?? 'not a pi session');
  // pi forks from what its reader loaded: a file it cannot open is never forked.
  const problem = openProblem(s, req.profile);
  if (problem) return refuse('invalid_session', `pi cannot open this file: line ${problem.line}: ${problem.message}`);
  return req.profile === 'h3' ? planH3(s, req, env) : planCa(s, req, env);
}

// ---------------------------------------------------------------- CA

const CA_INVALID = 'Invalid entry ID for forking';

function caHeader(s: ParsedSession, env: ForkEnv): SessionHeader {
  return {
    type: 'session',
    version: 3,
    id: env.newSessionId,
    timestamp: env.now,
    cwd: sourceCwd(s, env),
    parentSession: env.sourcePath,
  };
}

function planCa(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPlan {
  const byId = s.entriesOf('ca').byId;
  let entryId: string;
  let position: 'before' | 'at';
  if (req.kind === 'clone') {
    const leaf = req.leafId === undefined ? caLeafId(s) : req.leafId;
    if (!leaf) return refuse('nothing_to_clone', 'Nothing to clone yet');
    entryId = leaf;
    position = 'at';
  } else {
    entryId = req.entryId;
    position = req.position;
  }
  const selected = byId.get(entryId);
  if (!selected) return refuse('invalid_fork_target', CA_INVALID);
  let target: string | null;
  if (position === 'at') {
    target = selected.id;
  } else {
    if (!isUserMessage(selected)) return refuse('invalid_fork_target', CA_INVALID);
    target = selected.parentId;
    // A truthy non-string parentId (read as null) is still a target pi looks up, and misses.
    const rawParent = selected.strictInvalid === 'invalid_parent_id' ? selected.raw.parentId : null;
    if (rawParent) return refuse('not_found', `Entry ${String(rawParent)} not found`);
  }
  // Forking the first prompt: pi starts a new empty session that only records its parent.
  if (!target) return { ok: true, header: caHeader(s, env), entries: [], leafId: null };
  return createBranchedSession(s, target, env);
}

function createBranchedSession(s: ParsedSession, leafId: string, env: ForkEnv): ForkPlan {
  const source = s.entriesOf('ca');
  const start = source.byId.get(leafId);
  if (!start) return refuse('not_found', `Entry ${leafId} not found`);
  const walk = caWalk(start, source);
  const refusal = cycleRefusal(walk);
  if (refusal) return refusal;

  const kept: Rec[] = [];
  const replacementByLabelId = new Map<string, string>();
  const pendingLabelIds: string[] = [];
  let pathParentId: string | null = null;
  for (const entry of walk.entries) {
    if (entry.type === 'label') {
      pendingLabelIds.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabelIds) replacementByLabelId.set(labelId, entry.id);
    pendingLabelIds.length = 0;
    if (entry.type === 'compaction') {
      const firstKept = entry.raw.firstKeptEntryId as string;
      kept.push({
        ...entry.raw,
        parentId: pathParentId,
        firstKeptEntryId: firstKept === entry.id ? entry.id : (replacementByLabelId.get(firstKept) ?? firstKept),
      });
    } else {
      kept.push({ ...entry.raw, parentId: pathParentId });
    }
    pathParentId = entry.id;
  }

  const usedIds = new Set(kept.map((e) => e.id as string));
  const pathIds = new Set(usedIds);
  const { labels, timestamps } = computeLabels(s, 'ca');
  let parentId: string | null = (kept[kept.length - 1]?.id as string | undefined) || null;
  const labelEntries: Rec[] = [];
  for (const [targetId, label] of labels) {
    if (!pathIds.has(targetId)) continue;
    const id = freshId(usedIds, env.newEntryId);
    usedIds.add(id);
    labelEntries.push({ type: 'label', id, parentId, timestamp: timestamps.get(targetId), targetId, label });
    parentId = id;
  }
  const entries = [...kept, ...labelEntries];
  const last = entries[entries.length - 1];
  return { ok: true, header: caHeader(s, env), entries, leafId: last ? (last.id as string) : null };
}

function freshId(used: Set<string>, newId: () => string): string {
  for (let i = 0; i < 100; i++) {
    const id = newId();
    if (!used.has(id)) return id;
  }
  return newId();
}

// ---------------------------------------------------------------- H3

function planH3(s: ParsedSession, req: ForkRequest, env: ForkEnv): ForkPlan {
  const header: SessionHeader = {
    type: 'session',
    version: 3,
    id: env.newSessionId,
    timestamp: env.now,
    cwd: sourceCwd(s, env),
    parentSession: env.sourcePath,
  };
  if (s.header?.metadata !== undefined) header.metadata = s.header.metadata;
  const done = (list: Entry[]): ForkPlan => {
    const last = list[list.length - 1];
    return { ok: true, header, entries: list.map((e) => e.raw), leafId: last ? leafIdAfterEntry(last) : null };
  };

  // A clone without a leaf id and a fork without an entry id both copy every entry (pi: `!entryId`).
  const entryId = req.kind === 'clone' ? req.leafId : req.entryId;
  const position = req.kind === 'clone' ? 'at' : req.position;
  if (!entryId) return done(entriesFor(s, 'h3'));

  const source = s.entriesOf('h3');
  const byId = source.byId;
  const target = byId.get(entryId);
  if (!target) return refuse('invalid_fork_target', `Entry ${entryId} not found`);
  let effective: string | null;
  if (position === 'at') {
    effective = target.id;
  } else {
    if (!isUserMessage(target)) return refuse('invalid_fork_target', `Entry ${entryId} is not a user message`);
    effective = target.parentId;
  }
  if (effective === null) return done([]);
  const start = byId.get(effective);
  // A parentId of "" is not null, so pi looks it up and fails.
  if (!start) return refuse('not_found', `Entry ${effective} not found`);
  const walk = h3Walk(start, source);
  const refusal = cycleRefusal(walk);
  if (refusal) return refusal;
  if (walk.issues.some((i) => i.kind === 'dangling_parent')) {
    return refuse('invalid_session', `Entry ${walk.entries[0]!.parentId} not found`);
  }
  return done(walk.entries);
}
