/** Sums of the store report's usage rows by day, model, project or session, and a filter on them. PURE. */
import type { UsageRowDto } from '../../lib/shared';

export type UsageKey = 'day' | 'model' | 'project' | 'sessionId';

export interface UsageSum {
  key: string;
  cost: number;
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  billedCost: number;
  unpricedMessages: number;
  activeCost: number;
  otherSessionsCost: number;
  abandonedCost: number;
  duplicateCost: number;
  duplicateMessages: number;
}

export interface UsageFilter {
  kind: 'day' | 'model' | 'project';
  value: string;
}

const zero = (key: string): UsageSum => ({
  key,
  cost: 0,
  messages: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  billedCost: 0,
  unpricedMessages: 0,
  activeCost: 0,
  otherSessionsCost: 0,
  abandonedCost: 0,
  duplicateCost: 0,
  duplicateMessages: 0,
});

function add(s: UsageSum, r: UsageRowDto): void {
  s.cost += r.cost;
  s.messages += r.messages;
  s.input += r.input;
  s.output += r.output;
  s.cacheRead += r.cacheRead;
  s.cacheWrite += r.cacheWrite;
  s.billedCost += r.billedCost;
  s.unpricedMessages += r.unpricedMessages;
  s.activeCost += r.activeCost;
  s.otherSessionsCost += r.otherSessionsCost;
  s.abandonedCost += r.abandonedCost;
  s.duplicateCost += r.duplicateCost;
  s.duplicateMessages += r.duplicateMessages;
}

export function totalOf(rows: readonly UsageRowDto[]): UsageSum {
  const t = zero('total');
  for (const r of rows) add(t, r);
  return t;
}

/** A row's value for `key`: a model is named as pi's breakdown names it, `provider/model`. */
export function keyValue(r: UsageRowDto, key: UsageKey): string {
  return key === 'model' ? `${r.provider}/${r.model}` : r[key];
}

/** Sums by `key`: days in date order, everything else by cost, highest first. */
export function sumBy(rows: readonly UsageRowDto[], key: UsageKey): UsageSum[] {
  const m = new Map<string, UsageSum>();
  for (const r of rows) {
    const k = keyValue(r, key);
    let s = m.get(k);
    if (!s) m.set(k, (s = zero(k)));
    add(s, r);
  }
  const out = [...m.values()];
  return key === 'day' ? out.sort((a, b) => a.key.localeCompare(b.key)) : out.sort((a, b) => b.cost - a.cost);
}

export function applyFilter(rows: readonly UsageRowDto[], f: UsageFilter | null): UsageRowDto[] {
  return f ? rows.filter((r) => keyValue(r, f.kind) === f.value) : [...rows];
}

export function formatCost(n: number): string {
  return n >= 100 ? `$${n.toFixed(0)}` : `$${n.toFixed(2)}`;
}

export function formatTokens(n: number): string {
  return n >= 1e9
    ? `${(n / 1e9).toFixed(1)}B`
    : n >= 1e6
      ? `${(n / 1e6).toFixed(1)}M`
      : n >= 1e3
        ? `${(n / 1e3).toFixed(1)}k`
        : String(n);
}
