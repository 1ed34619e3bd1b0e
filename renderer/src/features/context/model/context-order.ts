import type { ContextMessageDto, ContextViewDto, EntryContextStateDto, EntryStateDto } from '../../../lib/shared';

/** Entry id → its state. A duplicated id keeps the later line, as pi's id index does. */
export function statesById(view: ContextViewDto): Map<string, EntryContextStateDto> {
  const out = new Map<string, EntryContextStateDto>();
  for (const e of view.entries) out.set(e.id, e);
  return out;
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

export const STATE_ORDER: readonly EntryStateDto[] = ['included', 'summarised', 'edited', 'excluded', 'not-projected', 'other-branch'];

/** What a state means, for legends and tooltips. */
export const STATE_HINTS: Record<EntryStateDto, string> = {
  included: 'pi sends this entry to the model',
  summarised: "a compaction's summary stands in for it",
  'other-branch': 'not on the path from the chosen leaf to the root',
  'not-projected': 'on the path, but it carries state only (model, labels, extension data…)',
  edited: 'a context_edit replaced or omitted what it sends',
  excluded: "selected, but pi's convertToLlm drops it (e.g. a !! bash run)",
};
