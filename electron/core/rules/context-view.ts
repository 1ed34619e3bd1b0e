/**
 * "What reaches the model", explained: for one reading of a session (any leaf, even a hypothetical
 * one) the state of every entry of the file with a reason, the ordered messages the model receives
 * with pi's token estimate, the derived state and where it came from, the usage and cost ledgers,
 * and the compactions on the path. PURE; every walk is iterative and cycle-guarded.
 *
 * It explains a DetailedReading, it does not recompute one: which entries are in the context and
 * which messages they produce come from readSessionDetailed (pi's rules per profile).
 */
import { contextTokens, lastUsage, ledgerOf, type ProjectedMessage, type UsageFact } from './cost-ledger';
import { compactionInfos, compactionRanges, retainedTailCopies } from './context-compactions';
import { classifyOffContext, classifyInContext, sentAs, type Classifier } from './context-reasons';
import { lastSetters, setterModel, spreadLike } from './context';
import { oneLine, previewEntry } from './entry-preview';
import type { DetailedReading } from './reading';
import type {
  ContextMessageInfo,
  ContextView,
  DerivedState,
  EntryState,
  EntryStateInfo,
} from '../../shared/context-dto';
import { caWalk, seqOf } from './path';
import { replaySystem } from './system-replay';
import { estimateTokens } from './token-estimate';
import type { Entry, ParsedSession, Profile } from '../types';

export type { CompactionInfo } from './context-compactions';
export type { SystemState } from './system-replay';
export type { CostLedger, LastUsage, ContextTokens, UsageFact } from './cost-ledger';
export type {
  ContextMessageInfo,
  ContextView,
  DerivedState,
  EntryState,
  EntryStateInfo,
  Sourced,
} from '../../shared/context-dto';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function messagePreview(m: unknown): string {
  if (!isRec(m)) return '(missing message)';
  if (m.role === 'compactionSummary' || m.role === 'branchSummary') return oneLine(str(m.summary) ?? '');
  const fake: Entry = { id: '', parentId: null, type: 'message', timestamp: '', line: 0, raw: { message: m } };
  return previewEntry(fake).preview;
}

/**
 * The state the path's last setters leave (context.ts lastSetters, pi's rule). Found walking back
 * from the leaf: only the bodies of candidate setters are read (indexed entries keep bodies on disk).
 */
function deriveState(path: Entry[], profile: Profile, projected: ProjectedMessage[]): DerivedState {
  const state: DerivedState = {
    model: { value: null, entryId: null },
    thinkingLevel: { value: 'off', entryId: null },
    activeTools: { value: null, entryId: null },
    system: profile === 'ca' ? replaySystem(projected) : null,
  };
  const { thinking, model } = lastSetters(seqOf(path));
  if (thinking) state.thinkingLevel = { value: str(thinking.raw.thinkingLevel), entryId: thinking.id };
  if (model) {
    const { provider, modelId } = setterModel(model);
    state.model = { value: { provider: str(provider), modelId: str(modelId) }, entryId: model.id };
  }
  if (profile === 'h3') {
    for (let i = path.length - 1; i >= 0; i--) {
      const e = path[i]!;
      if (e.type !== 'active_tools_change') continue;
      // pi spreads the value: a list, or (oddly) the characters of a string; anything else is skipped.
      const names = spreadLike(e.raw.activeToolNames);
      if (!names) continue;
      state.activeTools = { value: names.map(String), entryId: e.id };
      break;
    }
  }
  return state;
}

export interface ContextViewOptions {
  /** Usage of an entry from facts gathered in one pass over the file (default: read its body). */
  usageOf?: (e: Entry) => UsageFact | null;
}

export function buildContextView(
  s: ParsedSession,
  reading: DetailedReading,
  opts: ContextViewOptions = {},
): ContextView {
  const profile = reading.profile;
  const caEntries = s.entriesOf('ca');
  const byId = caEntries.byId;
  const lastPathId = reading.pathIds[reading.pathIds.length - 1];
  const start = lastPathId === undefined ? undefined : byId.get(lastPathId);
  const chain = start ? caWalk(start, caEntries).entries : [];
  // CA's path is the full chain; H3's is a checkpoint-truncated suffix of it.
  const path =
    profile === 'ca' && chain.length === reading.pathIds.length
      ? chain
      : reading.pathIds.map((id) => byId.get(id)).filter((e): e is Entry => e !== undefined);
  const contextIds = new Set(reading.contextEntryIds);
  const contextEntries = reading.contextEntryIds.map((id) => byId.get(id)).filter((e): e is Entry => e !== undefined);

  const ranges = compactionRanges(chain, profile, contextIds);
  const copies = retainedTailCopies(chain, ranges.latest, contextIds, profile);

  const projected: ProjectedMessage[] = [];
  const messages: ContextMessageInfo[] = [];
  let messageTokens = 0;
  for (const p of reading.projection) {
    p.messages.forEach((message, k) => {
      projected.push({ message, entryId: p.entryId });
      const as = sentAs(message, profile);
      if (!as || !isRec(message)) return;
      const tokens = estimateTokens(message, profile);
      if (as !== 'system') messageTokens += tokens;
      const info: ContextMessageInfo = {
        index: messages.length,
        entryId: p.entryId,
        role: String(message.role),
        sentAs: as,
        preview: messagePreview(message),
        tokens,
      };
      const copyOf = ranges.latest && p.entryId === ranges.latest.entry.id ? copies.byTailIndex.get(k - 1) : undefined;
      if (copyOf !== undefined) info.copyOf = copyOf;
      messages.push(info);
    });
  }

  const chainIndex = new Map(chain.map((e, i) => [e.id, i]));
  const classifier: Classifier = {
    profile,
    projection: new Map(reading.projection.map((p) => [p.entryId, p.messages])),
    chainIndex,
    truncatedAt: profile === 'h3' && path[0] ? (chainIndex.get(path[0].id) ?? 0) : 0,
    ranges,
    copiedBy: copies.copiedBy,
  };
  const entries: EntryStateInfo[] = [];
  const counts: Record<EntryState, number> = {
    included: 0,
    summarised: 0,
    'other-branch': 0,
    'not-projected': 0,
    edited: 0,
    excluded: 0,
  };
  const edits = editsOf(contextEntries, profile);
  for (const e of s.entries) {
    let info: EntryStateInfo;
    if (byId.get(e.id) !== e) {
      info = {
        id: e.id,
        line: e.line,
        state: 'other-branch',
        reason: 'another line has the same id; pi uses the later one',
      };
    } else if (contextIds.has(e.id)) {
      info = classifyInContext(e, classifier, edits);
    } else if (classifier.chainIndex.has(e.id)) {
      info = classifyOffContext(e, classifier);
    } else {
      const reason =
        reading.leafId === null ? 'no leaf: the context is empty' : 'not on the path from the leaf to the root';
      info = { id: e.id, line: e.line, state: 'other-branch', reason };
    }
    counts[info.state]++;
    entries.push(info);
  }

  const state = deriveState(path, profile, projected);
  const system = state.system?.tokens ?? 0;
  return {
    profile,
    leafId: reading.leafId,
    contextEntryIds: reading.contextEntryIds,
    entries,
    counts,
    messages,
    tokens: { total: messageTokens + system, messages: messageTokens, system },
    contextTokens: contextTokens(profile, projected, path),
    state,
    lastUsage: lastUsage(projected),
    cost: { activePath: ledgerOf(chain, opts.usageOf), allBranches: ledgerOf(s.entries, opts.usageOf) },
    compactions: compactionInfos(ranges, entries, reading.contextEntryIds),
  };
}

/** CA 1.6.0 buildSessionProjection: the latest context_edit per target among the context entries. */
function editsOf(contextEntries: Entry[], profile: Profile): Map<unknown, Entry> {
  const edits = new Map<unknown, Entry>();
  if (profile !== 'ca') return edits;
  for (const e of contextEntries) if (e.type === 'context_edit') edits.set(e.raw.targetId, e);
  return edits;
}
