/**
 * Spend across the whole store as pi 1.6 counts it (spend.ts: keyed by provider and concrete model,
 * tool and summary usage in a bucket of their own, `usage` entries included), each record counted
 * once within its fork family. PURE.
 *
 * A record copied by /fork or /clone is one spend: it is attributed to the oldest session of the
 * family holding it, and classed as `active` (on that session's current path), `otherSessions` (on
 * no current path of its own session but on another member's: a fork carried it on) or `abandoned`
 * (on no member's current path). What a per-file sum adds on top is reported as `duplicates`.
 * Records with values pi's Usage type does not allow, or without a real date, are `problems`.
 */
import type { SpendFact } from './spend';
import { activePath, entryKey, utcDay, type SessionFacts } from './store-families';

export const USAGE_GROUP_KEYS = ['day', 'provider', 'model', 'project', 'session', 'family'] as const;
export type UsageGroupKey = (typeof USAGE_GROUP_KEYS)[number];

/** The version of `canopy usage --json`'s shape (bumped when a field changes meaning). */
export const USAGE_SCHEMA_VERSION = 2;

/** The day key of records whose timestamp names no real date (counted, and listed as problems). */
export const NO_DAY = '(no date)';

export interface SpendTotals {
  cost: number;
  /** Usage records (assistant messages, `usage` entries, tool and summary usage). */
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of cacheWrite written with 1 h retention. */
  cacheWrite1h: number;
  /** Part of output spent reasoning. */
  reasoning: number;
  /** Part of cost the provider billed (`totalFromProvider`); the rest is the catalog's estimate. */
  billedCost: number;
  billedMessages: number;
  /** Records whose model has no price (their tokens count, their cost is unknown, not $0). */
  unpricedMessages: number;
}

/** A line whose usage was not counted, or counted without a day. */
export interface UsageProblem {
  path: string;
  line: number | null;
  entryId: string;
  message: string;
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
  problems: UsageProblem[];
}

function add(t: SpendTotals, spend: SpendFact): void {
  t.cost += spend.cost ?? 0;
  t.messages++;
  t.input += spend.input;
  t.output += spend.output;
  t.cacheRead += spend.cacheRead;
  t.cacheWrite += spend.cacheWrite;
  t.cacheWrite1h += spend.cacheWrite1h;
  t.reasoning += spend.reasoning;
  if (spend.billed) {
    t.billedCost += spend.cost ?? 0;
    t.billedMessages++;
  }
  if (spend.cost === null) t.unpricedMessages++;
}

const zeroTotals = (): SpendTotals => ({
  cost: 0,
  messages: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  reasoning: 0,
  billedCost: 0,
  billedMessages: 0,
  unpricedMessages: 0,
});

const problemOf = (s: SessionFacts, e: SessionFacts['entries'][number], message: string): UsageProblem => ({
  path: s.path,
  line: e.line ?? null,
  entryId: e.id,
  message,
});

export class UsageAccumulator {
  private readonly groups = new Map<string, UsageGroup>();
  private readonly total = zeroTotals();
  private readonly duplicates: SpendSplit = { cost: 0, messages: 0 };
  private readonly unpriced = new Set<string>();
  private readonly problems: UsageProblem[] = [];

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
        if (e.spendProblem) this.problems.push(problemOf(s, e, e.spendProblem));
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
        const dated = this.opts.since !== undefined || this.opts.until !== undefined;
        if (day === '')
          this.problems.push(problemOf(s, e, `timestamp ${JSON.stringify(e.timestamp)} names no real date`));
        if (
          dated &&
          (day === '' || (this.opts.since && day < this.opts.since) || (this.opts.until && day > this.opts.until))
        ) {
          if (forked) seen.set(key, null);
          return;
        }
        const g = this.group(day || NO_DAY, spend, s.header.cwd, keyOf(s), family);
        if (forked) seen.set(key, g);
        add(g, spend);
        add(this.total, spend);
        if (spend.cost === null) this.unpriced.add(`${spend.provider}/${spend.model}`);
        const split = paths[m]!.has(i) ? g.active : onSomePath.has(key) ? g.otherSessions : g.abandoned;
        split.cost += spend.cost ?? 0;
        split.messages++;
      });
    });
  }

  private group(day: string, spend: SpendFact, project: string, session: string, family: string): UsageGroup {
    const keys: Record<UsageGroupKey, string> = {
      day,
      provider: spend.provider,
      model: spend.model,
      project,
      session,
      family,
    };
    const value = (k: UsageGroupKey): string => keys[k];
    let id = '';
    for (const k of this.opts.by) id += `${value(k)}\u0001`;
    let g = this.groups.get(id);
    if (!g) {
      const picked: UsageGroup['keys'] = {};
      for (const k of this.opts.by) picked[k] = value(k);
      g = {
        keys: picked,
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
      problems: [...this.problems],
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
