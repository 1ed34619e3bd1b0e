/**
 * Every entry's context state as columns: a large session has tens of thousands of entries and a
 * handful of distinct reasons, so each reason (and each entry a state points at) is sent once and
 * named by index. PURE; shared by main (packs) and the renderer (looks entries up).
 */

/** Why an entry is or is not part of the model's context at the chosen leaf. */
export type EntryState = 'included' | 'summarised' | 'other-branch' | 'not-projected' | 'edited' | 'excluded';

export interface EntryStateInfo {
  id: string;
  line: number;
  state: EntryState;
  /** Why, in a few words (no ids: those are in `by` / `targetId`). */
  reason: string;
  /** The compaction that summarised it, the context_edit that edited it, or the newest compaction. */
  by?: string;
  /** context_edit records: the entry they edit. */
  targetId?: string;
}

export const ENTRY_STATES: readonly EntryState[] = [
  'included',
  'summarised',
  'other-branch',
  'not-projected',
  'edited',
  'excluded',
];

export interface EntryStatesDto {
  /** Entry ids in file order (a duplicated id appears once per line). */
  ids: string[];
  lines: number[];
  /** Index into ENTRY_STATES. */
  states: number[];
  /** Distinct reason texts; `reason[i]` indexes it. */
  reasons: string[];
  reason: number[];
  /** Distinct ids that `by` / `targets` name. */
  refs: string[];
  /** Index into `refs`, -1: none. */
  by: number[];
  /** Pairs [entry index, index into `refs`] of the entries that have a targetId, in entry order. */
  targets: number[];
}

function tableOf<T>(): { index: (v: T) => number; values: T[] } {
  const values: T[] = [];
  const at = new Map<T, number>();
  return {
    values,
    index: (v) => {
      let i = at.get(v);
      if (i === undefined) {
        i = values.length;
        values.push(v);
        at.set(v, i);
      }
      return i;
    },
  };
}

export function packEntryStates(entries: readonly EntryStateInfo[]): EntryStatesDto {
  const stateIndex = new Map(ENTRY_STATES.map((s, i) => [s, i]));
  const reasons = tableOf<string>();
  const refs = tableOf<string>();
  const out: EntryStatesDto = {
    ids: [],
    lines: [],
    states: [],
    reasons: reasons.values,
    reason: [],
    refs: refs.values,
    by: [],
    targets: [],
  };
  entries.forEach((e, i) => {
    out.ids.push(e.id);
    out.lines.push(e.line);
    out.states.push(stateIndex.get(e.state)!);
    out.reason.push(reasons.index(e.reason));
    out.by.push(e.by === undefined ? -1 : refs.index(e.by));
    if (e.targetId !== undefined) out.targets.push(i, refs.index(e.targetId));
  });
  return out;
}

/** Entry `i` of a packed list, as the core described it. */
export function entryStateAt(p: EntryStatesDto, i: number): EntryStateInfo {
  const info: EntryStateInfo = {
    id: p.ids[i]!,
    line: p.lines[i]!,
    state: ENTRY_STATES[p.states[i]!]!,
    reason: p.reasons[p.reason[i]!]!,
  };
  const by = p.by[i]!;
  if (by >= 0) info.by = p.refs[by]!;
  const k = targetPair(p.targets, i);
  if (k >= 0) info.targetId = p.refs[p.targets[k + 1]!]!;
  return info;
}

/** The position of entry `i`'s pair in `targets` (pairs are in entry order: a binary search), or -1. */
function targetPair(targets: readonly number[], i: number): number {
  let lo = 0;
  let hi = targets.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = targets[mid * 2]!;
    if (at === i) return mid * 2;
    if (at < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** All entries back as the core's list (tests, small views). */
export function unpackEntryStates(p: EntryStatesDto): EntryStateInfo[] {
  return p.ids.map((_, i) => entryStateAt(p, i));
}
