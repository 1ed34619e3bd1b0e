/**
 * Compactions on a leaf's ancestor chain: which entries each one summarised, H3 retainedTail
 * copies, and the inspector rows. PURE, iterative.
 */
import { h3EntryMessages, IssueSink } from './context';
import type { CompactionInfo, EntryState } from '../../shared/context-dto';
import { compactionFacts } from './entry-fields';
import type { Entry, Profile } from '../types';

export type { CompactionInfo } from '../../shared/context-dto';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

export interface CompactionRange {
  entry: Entry;
  /** Index on the chain (root-most first). */
  index: number;
  /** Chain index where its kept range starts (its own index when nothing before it is kept). */
  keptStart: number;
  /** Whether its firstKeptEntryId names an entry before it on the chain (and the profile uses it). */
  firstKeptOnPath: boolean;
  /** Entries it summarised that are not in the current context. */
  hidden: string[];
}

export interface Ranges {
  list: CompactionRange[];
  /** The newest compaction on the chain (the one whose summary opens the context). */
  latest: CompactionRange | null;
  /** entry id → the compaction that first summarised it. */
  hiddenBy: Map<string, string>;
  /** Ids of the compactions with a truthy retainedTail (H3 checkpoints). */
  checkpoints: Set<string>;
}

/**
 * Where the kept range of the compaction at chain index `c` starts, by the profile's selection
 * rule: H3 keeps nothing before a retainedTail checkpoint (the tail is inside it); both keep from
 * firstKeptEntryId when it is before the compaction on the path; otherwise nothing before it.
 */
/** `firstAt(id)`: the first index of `id` on the chain (-1 if absent). */
function keptStart(chain: Entry[], c: number, profile: Profile, firstAt: (id: unknown) => number): number {
  const facts = compactionFacts(chain[c]!);
  if (profile === 'h3' && facts.retainedTail) return c;
  const firstKept = facts.firstKeptEntryId;
  if (profile === 'h3' && !firstKept) return c;
  const i = firstAt(firstKept);
  return i >= 0 && i < c ? i : c;
}

/** The first index of each id on the chain, built on the first call (a scan per compaction was quadratic on long paths). */
function firstIndexOf(chain: Entry[]): (id: unknown) => number {
  let first: Map<string, number> | null = null;
  return (id) => {
    if (!first) {
      first = new Map();
      for (let i = 0; i < chain.length; i++) if (!first.has(chain[i]!.id)) first.set(chain[i]!.id, i);
    }
    return typeof id === 'string' ? (first.get(id) ?? -1) : -1;
  };
}

/**
 * Each compaction summarised the entries between the previous compaction's kept start and its own
 * (pi's prepareCompaction summarises from the previous first kept entry up to the new cut point,
 * folding the previous summary in), so every entry is attributed to at most one compaction.
 */
export function compactionRanges(chain: Entry[], profile: Profile, contextIds: Set<string>): Ranges {
  const list: CompactionRange[] = [];
  const hiddenBy = new Map<string, string>();
  let cursor = 0;
  const firstAt = firstIndexOf(chain);
  for (let c = 0; c < chain.length; c++) {
    const entry = chain[c]!;
    if (entry.type !== 'compaction') continue;
    const start = keptStart(chain, c, profile, firstAt);
    const end = Math.max(cursor, start);
    const hidden: string[] = [];
    for (let i = cursor; i < end; i++) {
      const id = chain[i]!.id;
      hiddenBy.set(id, entry.id);
      if (!contextIds.has(id)) hidden.push(id);
    }
    cursor = end;
    list.push({ entry, index: c, keptStart: start, firstKeptOnPath: start < c, hidden });
  }
  const checkpoints = new Set(list.filter((r) => compactionFacts(r.entry).retainedTail).map((r) => r.entry.id));
  return { list, latest: list[list.length - 1] ?? null, hiddenBy, checkpoints };
}

export interface TailCopies {
  /** retainedTail index → the chain entry whose projected message it equals. */
  byTailIndex: Map<number, string>;
  /** chain entry id → the compaction holding a copy of its message. */
  copiedBy: Map<string, string>;
}

/**
 * H3 retainedTail messages are copies of the projected messages of entries before the compaction.
 * Candidates are found by role + timestamp, then confirmed by equal JSON.
 */
export function retainedTailCopies(
  chain: Entry[],
  latest: CompactionRange | null,
  contextIds: Set<string>,
  profile: Profile,
): TailCopies {
  const out: TailCopies = { byTailIndex: new Map(), copiedBy: new Map() };
  const tail = latest?.entry.raw.retainedTail;
  if (profile !== 'h3' || !latest || !contextIds.has(latest.entry.id) || !Array.isArray(tail) || tail.length === 0)
    return out;
  const key = (m: unknown) => (isRec(m) ? `${String(m.role)}\u0000${String(m.timestamp)}` : '');
  const candidates = new Map<string, { id: string; message: unknown }[]>();
  const sink = new IssueSink();
  for (let i = 0; i < latest.index; i++) {
    const e = chain[i]!;
    if (e.type !== 'message' && e.type !== 'custom_message' && e.type !== 'branch_summary') continue;
    const message = h3EntryMessages(e, sink)[0];
    if (!isRec(message)) continue;
    const k = key(message);
    const list = candidates.get(k);
    if (list) list.push({ id: e.id, message });
    else candidates.set(k, [{ id: e.id, message }]);
  }
  tail.forEach((m, t) => {
    const list = candidates.get(key(m));
    if (!list) return;
    const json = JSON.stringify(m);
    // The newest equal message not matched yet: the tail copies the entries right before the compaction.
    for (let j = list.length - 1; j >= 0; j--) {
      const c = list[j]!;
      if (out.copiedBy.has(c.id) || JSON.stringify(c.message) !== json) continue;
      out.byTailIndex.set(t, c.id);
      out.copiedBy.set(c.id, latest.entry.id);
      return;
    }
  });
  return out;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function compactionInfos(
  ranges: Ranges,
  states: { id: string; state: EntryState }[],
  contextEntryIds: string[],
): CompactionInfo[] {
  const wanted = new Set(ranges.list.map((r) => r.entry.id));
  const stateOf = new Map<string, EntryState>();
  for (const s of states) if (wanted.has(s.id)) stateOf.set(s.id, s.state);
  return ranges.list.map((r) => {
    const raw = r.entry.raw;
    const details = isRec(raw.details) ? raw.details : {};
    return {
      id: r.entry.id,
      line: r.entry.line,
      active: contextEntryIds[0] === r.entry.id,
      state: stateOf.get(r.entry.id) ?? 'other-branch',
      summary: typeof raw.summary === 'string' ? raw.summary : '',
      tokensBefore: typeof raw.tokensBefore === 'number' ? raw.tokensBefore : null,
      firstKeptEntryId: typeof raw.firstKeptEntryId === 'string' ? raw.firstKeptEntryId : null,
      firstKeptOnPath: r.firstKeptOnPath,
      retainedTailCount: Array.isArray(raw.retainedTail) ? raw.retainedTail.length : null,
      hasSystemMessage: Boolean(raw.systemMessage),
      readFiles: strings(details.readFiles),
      modifiedFiles: strings(details.modifiedFiles),
      hiddenIds: r.hidden,
    };
  });
}
