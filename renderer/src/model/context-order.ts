import {
  ENTRY_STATES,
  entryStateAt,
  type ContextMessageDto,
  type ContextViewDto,
  type EntryContextStateDto,
  type EntryStateDto,
  type EntryStatesDto,
  type SessionGraphDto,
} from '../lib/shared';
import type { TreeIndex } from './tree-index';

/** Entry id → its state in a context view. */
export interface ContextStates {
  get(id: string): EntryContextStateDto | undefined;
  /** The state alone (no object made: collapsed chains ask for thousands). */
  stateOf(id: string): EntryStateDto | undefined;
}

const lookups = new WeakMap<EntryStatesDto, ContextStates>();

/** The graph's id index, when it lists the same ids as the packed states, line for line (no duplicates). */
function sameIds(packed: EntryStatesDto, index: TreeIndex | null | undefined): Map<string, number> | null {
  if (!index || index.size !== packed.ids.length) return null;
  for (let i = 0; i < index.size; i++) if (index.ids[i] !== packed.ids[i]) return null;
  return index.indexOf;
}

/**
 * A duplicated id keeps the later line, as pi's id index does. One lookup per view, shared by its
 * readers; with the graph's index of the same file it needs no id map of its own.
 */
export function statesById(view: ContextViewDto, index?: TreeIndex | null): ContextStates {
  const packed = view.entries;
  let found = lookups.get(packed);
  if (found) return found;
  let at = sameIds(packed, index);
  if (!at) {
    at = new Map<string, number>();
    for (let i = 0; i < packed.ids.length; i++) at.set(packed.ids[i]!, i);
  }
  const indexOf = at;
  const made = new Map<number, EntryContextStateDto>();
  found = {
    get(id) {
      const i = indexOf.get(id);
      if (i === undefined) return undefined;
      let info = made.get(i);
      if (!info) made.set(i, (info = entryStateAt(packed, i)));
      return info;
    },
    stateOf(id) {
      const i = indexOf.get(id);
      return i === undefined ? undefined : ENTRY_STATES[packed.states[i]!];
    },
  };
  lookups.set(packed, found);
  return found;
}

/**
 * The view with its entry ids replaced by the graph's own id strings where they are the same
 * (equal values: the renderer then keeps one copy of each id, not two).
 */
export function shareIds(view: ContextViewDto, graph: SessionGraphDto | null): ContextViewDto {
  if (!graph || graph.sessionId !== view.sessionId) return view;
  const ids = view.entries.ids;
  const own = new Map<string, string>();
  for (const e of graph.entries) own.set(e.id, e.id);
  for (let i = 0; i < ids.length; i++) ids[i] = own.get(ids[i]!) ?? ids[i]!;
  return view;
}

/** Context entry id → the messages it sends, in order. */
export function messagesByEntry(view: ContextViewDto): Map<string, ContextMessageDto[]> {
  const out = new Map<string, ContextMessageDto[]>();
  for (const m of view.messages) {
    const list = out.get(m.entryId);
    if (list) list.push(m);
    else out.set(m.entryId, [m]);
  }
  return out;
}

export const STATE_LABELS: Record<EntryStateDto, string> = {
  included: 'in context',
  summarised: 'summarised',
  'other-branch': 'other branch',
  'not-projected': 'not sent',
  edited: 'edited',
  excluded: 'excluded',
};

export const STATE_ORDER: readonly EntryStateDto[] = [
  'included',
  'summarised',
  'edited',
  'excluded',
  'not-projected',
  'other-branch',
];

/** What a state means, for legends and tooltips. */
export const STATE_HINTS: Record<EntryStateDto, string> = {
  included: 'pi sends this entry to the model',
  summarised: "a compaction's summary stands in for it",
  'other-branch': 'not on the path from the chosen leaf to the root',
  'not-projected': 'on the path, but it carries state only (model, labels, extension data…)',
  edited: 'a context_edit replaced or omitted what it sends',
  excluded: "selected, but pi's convertToLlm drops it (e.g. a !! bash run)",
};
