/**
 * Spend across the whole store, each assistant message counted once within its fork family. PURE.
 *
 * A message copied by /fork or /clone is one spend: it is attributed to the oldest session of the
 * family holding it, and classed as `active` (on that session's current path), `otherSessions` (on
 * no current path of its own session but on another member's: a fork carried it on) or `abandoned`
 * (on no member's current path). What a per-file sum adds on top is reported as `duplicates`.
 */
import type { SpendFact } from './store-facts';
import { activePath, entryKey, utcDay, type SessionFacts } from './store-families';

export const USAGE_GROUP_KEYS = ['day', 'model', 'project', 'session', 'family'] as const;
export type UsageGroupKey = (typeof USAGE_GROUP_KEYS)[number];

export interface SpendTotals {
  cost: number;
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Messages whose model has no price (their tokens count, their cost is unknown, not $0). */
  unpricedMessages: number;
}

export interface SpendSplit {
  cost: number;
  messages: number;
}

export interface UsageGroup extends SpendTotals {
  keys: Partial<Record<UsageGroupKey, string>>;
  active: SpendSplit;
  otherSessions: SpendSplit;
  abandoned: SpendSplit;
  /** What copies of these messages in other files would have added to a per-file sum. */
  duplicates: SpendSplit;
}

export interface UsageOptions {
  by: readonly UsageGroupKey[];
  /** Inclusive UTC dates (YYYY-MM-DD). */
  since?: string;
  until?: string;
  /** What names a session in the `session` and `family` keys (default its header id). */
  sessionKey?: (s: SessionFacts) => string;
}

export interface UsageReport {
  groups: UsageGroup[];
  total: SpendTotals;
  duplicates: SpendSplit;
  unpricedModels: string[];
}

function add(t: SpendTotals, spend: SpendFact): void {
  t.cost += spend.cost ?? 0;
  t.messages++;
  t.input += spend.input;
  t.output += spend.output;
  t.cacheRead += spend.cacheRead;
  t.cacheWrite += spend.cacheWrite;
  if (spend.cost === null) t.unpricedMessages++;
}

const zeroTotals = (): SpendTotals => ({
  cost: 0,
  messages: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  unpricedMessages: 0,
});

export class UsageAccumulator {
  private readonly groups = new Map<string, UsageGroup>();
  private readonly total = zeroTotals();
  private readonly duplicates: SpendSplit = { cost: 0, messages: 0 };
  private readonly unpriced = new Set<string>();

  constructor(private readonly opts: UsageOptions) {}

  /** Adds one family: its sessions oldest first. */
  addFamily(members: readonly SessionFacts[]): void {
    if (members.length === 0) return;
    const keyOf = this.opts.sessionKey ?? ((s: SessionFacts) => s.header.id);
    const family = keyOf(members[0]!);
    const paths = members.map(activePath);
    // Copies exist only between files: a family of one needs no keys (the common case, and the cost).
    const forked = members.length > 1;
    const onSomePath = new Set<string>();
    if (forked) {
      members.forEach((s, m) => {
        for (const i of paths[m]!) if (s.entries[i]!.spend) onSomePath.add(entryKey(s.entries[i]!));
      });
    }
    const seen = new Map<string, UsageGroup | null>();
    members.forEach((s, m) => {
      s.entries.forEach((e, i) => {
        const spend = e.spend;
        if (!spend) return;
        const key = forked ? entryKey(e) : '';
        const first = forked ? seen.get(key) : undefined;
        if (first !== undefined) {
          // A copy: counted once; the group it would have been summed into shows what it adds.
          if (first === null) return;
          first.duplicates.cost += spend.cost ?? 0;
          first.duplicates.messages++;
          this.duplicates.cost += spend.cost ?? 0;
          this.duplicates.messages++;
          return;
        }
        const day = utcDay(e.timestamp);
        if ((this.opts.since && day < this.opts.since) || (this.opts.until && day > this.opts.until)) {
          if (forked) seen.set(key, null);
          return;
        }
        const g = this.group(day, spend.model, s.header.cwd, keyOf(s), family);
        if (forked) seen.set(key, g);
        add(g, spend);
        add(this.total, spend);
        if (spend.cost === null) this.unpriced.add(spend.model);
        const split = paths[m]!.has(i) ? g.active : onSomePath.has(key) ? g.otherSessions : g.abandoned;
        split.cost += spend.cost ?? 0;
        split.messages++;
      });
    });
  }

  private group(day: string, model: string, project: string, session: string, family: string): UsageGroup {
    const value = (k: UsageGroupKey): string =>
      k === 'day' ? day : k === 'model' ? model : k === 'project' ? project : k === 'session' ? session : family;
    let id = '';
    for (const k of this.opts.by) id += `${value(k)}\u0001`;
    let g = this.groups.get(id);
    if (!g) {
      const keys: UsageGroup['keys'] = {};
      for (const k of this.opts.by) keys[k] = value(k);
      g = {
        keys,
        ...zeroTotals(),
        active: { cost: 0, messages: 0 },
        otherSessions: { cost: 0, messages: 0 },
        abandoned: { cost: 0, messages: 0 },
        duplicates: { cost: 0, messages: 0 },
      };
      this.groups.set(id, g);
    }
    return g;
  }

  /** Groups ordered by their keys (days ascending), then by cost when a key ties. */
  report(): UsageReport {
    const by = this.opts.by;
    const groups = [...this.groups.values()].sort((a, b) => {
      for (const k of by) {
        const c = (a.keys[k] ?? '').localeCompare(b.keys[k] ?? '');
        if (c !== 0) return k === 'day' ? c : b.cost - a.cost || c;
      }
      return 0;
    });
    return {
      groups,
      total: { ...this.total },
      duplicates: { ...this.duplicates },
      unpricedModels: [...this.unpriced].sort(),
    };
  }
}

/** Parses `--by` (comma-separated); throws on an unknown key. */
export function parseGroupKeys(text: string): UsageGroupKey[] {
  const keys = text.split(',').map((k) => k.trim());
  for (const k of keys) {
    if (!(USAGE_GROUP_KEYS as readonly string[]).includes(k)) {
      throw new Error(`unknown --by key ${JSON.stringify(k)} (one of ${USAGE_GROUP_KEYS.join(', ')})`);
    }
  }
  return [...new Set(keys)] as UsageGroupKey[];
}
