/**
 * Spend recorded in a session file, and the context size pi would report. PURE.
 *
 * A usage record counts only when input/output/cacheRead/cacheWrite and cost.total are numbers
 * (pi-agent-core 0.82.1 getSessionStats' rule), so a malformed record never yields NaN. Records are
 * read from entries only: an H3 compaction's `retainedTail` holds copies of assistant messages whose
 * usage is already counted on their own entries, and counting them again would double count.
 */
import { replaySystem } from './system-replay';
import { contextTokensOf, estimateTokens, validAssistantUsage } from './token-estimate';
import type { ContextTokens, CostLedger, LastUsage, UsageSource } from '../../shared/context-dto';
import type { Entry, Profile } from '../types';

export type { ContextTokens, CostLedger, LastUsage, UsageSource } from '../../shared/context-dto';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null;

/**
 * Where an entry carries usage. H3's getSessionStats reads assistant messages and compaction /
 * branch_summary entries; CA 1.6.0's getSessionStats also reads `usage` entries (model calls made
 * outside the conversation) and toolResult usage, so those count too: they are spend no other
 * entry records.
 */
export function usageRecord(e: Entry): { source: UsageSource; usage: unknown } | undefined {
  if (!mayCarryUsage(e)) return undefined;
  return usageRecordOf(e.type, e.raw);
}

/** usageRecord of an entry's type and body (a body read in a pass over the file). */
export function usageRecordOf(type: string, raw: Rec): { source: UsageSource; usage: unknown } | undefined {
  if (type === 'message') {
    const m = raw.message;
    if (!isRec(m)) return undefined;
    if (m.role === 'assistant') return { source: 'assistant', usage: m.usage };
    if (m.role === 'toolResult' && m.usage) return { source: 'toolResult', usage: m.usage };
    return undefined;
  }
  if (type === 'compaction') return { source: 'compaction', usage: raw.usage };
  if (type === 'branch_summary') return { source: 'branchSummary', usage: raw.usage };
  if (type === 'usage') return { source: 'usage', usage: raw.usage };
  return undefined;
}

/** False when the envelope alone rules usage out (no body read: bodies of indexed entries are on disk). */
function mayCarryUsage(e: Entry): boolean {
  switch (e.type) {
    case 'message': {
      const role = e.role;
      return role === undefined || role === 'assistant' || role === 'toolResult';
    }
    case 'compaction':
    case 'branch_summary':
    case 'usage':
      return true;
    default:
      return false;
  }
}

/** One entry's usage as the ledger counts it; null when it has none or the record is malformed. */
export interface UsageFact {
  source: UsageSource;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
}

export function usageFactOf(record: { source: UsageSource; usage: unknown } | undefined): UsageFact | null {
  const u = record?.usage;
  if (!record || !isRec(u)) return null;
  const cost = isRec(u.cost) ? u.cost.total : undefined;
  if (
    typeof u.input !== 'number' ||
    typeof u.output !== 'number' ||
    typeof u.cacheRead !== 'number' ||
    typeof u.cacheWrite !== 'number' ||
    typeof cost !== 'number'
  ) {
    return null;
  }
  return {
    source: record.source,
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead,
    cacheWrite: u.cacheWrite,
    cost,
  };
}

export const entryUsageFact = (e: Entry): UsageFact | null => usageFactOf(usageRecord(e));

export function emptyLedger(): CostLedger {
  return {
    records: { assistant: 0, toolResult: 0, compaction: 0, branchSummary: 0, usage: 0 },
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cachedTokens: 0,
    uncachedTokens: 0,
    costTotal: 0,
  };
}

/**
 * Sums the usage of `entries` (distinct entries: a cycle-guarded chain, or a file's entry list).
 * `factOf` may answer from facts gathered in one pass over the file instead of reading each body.
 */
export function ledgerOf(
  entries: Iterable<Entry>,
  factOf: (e: Entry) => UsageFact | null = entryUsageFact,
): CostLedger {
  const out = emptyLedger();
  for (const e of entries) {
    const u = factOf(e);
    if (!u) continue;
    out.records[u.source]++;
    out.input += u.input;
    out.output += u.output;
    out.cacheRead += u.cacheRead;
    out.cacheWrite += u.cacheWrite;
    out.totalTokens += u.input + u.output + u.cacheRead + u.cacheWrite;
    out.cachedTokens += u.cacheRead;
    out.uncachedTokens += u.input + u.cacheWrite;
    out.costTotal += u.cost;
  }
  return out;
}

export interface ProjectedMessage {
  message: unknown;
  entryId: string;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The last assistant message of the context with valid usage (pi's getLastAssistantUsageInfo). */
export function lastUsage(messages: ProjectedMessage[]): LastUsage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const { message, entryId } = messages[i]!;
    const usage = validAssistantUsage(message);
    if (!usage) continue;
    return {
      entryId,
      messageIndex: i,
      input: num(usage.input),
      output: num(usage.output),
      cacheRead: num(usage.cacheRead),
      cacheWrite: num(usage.cacheWrite),
      totalTokens: num(usage.totalTokens),
      costTotal: isRec(usage.cost) ? num(usage.cost.total) : null,
      contextTokens: contextTokensOf(usage),
    };
  }
  return null;
}

/**
 * The context size pi reports. H3: estimateContextTokens (last usage + later messages, else the
 * estimate). CA 1.6.0: estimateProjectedContextTokens, which trusts the usage only when its entry
 * comes after the branch's latest compaction / context_edit, and otherwise counts the replayed
 * system message once plus every non-system message.
 */
export function contextTokens(profile: Profile, messages: ProjectedMessage[], branch: Entry[]): ContextTokens {
  const last = lastUsage(messages);
  const estimate = (i: number) => estimateTokens(messages[i]!.message, profile);
  if (last) {
    let trusted = profile === 'h3';
    if (!trusted) {
      const usageIndex = branch.findIndex((e) => e.id === last.entryId);
      let invalidating = -1;
      for (let i = branch.length - 1; i >= 0; i--) {
        const t = branch[i]!.type;
        if (t === 'context_edit' || t === 'compaction') {
          invalidating = i;
          break;
        }
      }
      trusted = usageIndex > invalidating;
    }
    if (trusted) {
      let trailing = 0;
      for (let i = last.messageIndex + 1; i < messages.length; i++) trailing += estimate(i);
      return {
        tokens: last.contextTokens + trailing,
        method: 'usage',
        usageTokens: last.contextTokens,
        trailingTokens: trailing,
      };
    }
  }
  let tokens = 0;
  if (profile === 'ca') {
    tokens = replaySystem(messages)?.tokens ?? 0;
    messages.forEach((m, i) => {
      if (!(isRec(m.message) && m.message.role === 'system')) tokens += estimate(i);
    });
  } else {
    for (let i = 0; i < messages.length; i++) tokens += estimate(i);
  }
  return { tokens, method: 'estimate', usageTokens: 0, trailingTokens: tokens };
}
