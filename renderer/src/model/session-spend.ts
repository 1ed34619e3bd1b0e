import type { UsageRowDto } from '../lib/shared';

/** What one session cost, and the model most of its messages went to (from the store report's usage rows). */
export interface SessionSpend {
  cost: number;
  model: string;
}

export function spendBySession(usage: readonly UsageRowDto[]): Record<string, SessionSpend> {
  const cost = new Map<string, number>();
  const messages = new Map<string, Map<string, number>>();
  for (const u of usage) {
    cost.set(u.sessionId, (cost.get(u.sessionId) ?? 0) + u.cost);
    const byModel = messages.get(u.sessionId) ?? new Map<string, number>();
    byModel.set(u.model, (byModel.get(u.model) ?? 0) + u.messages);
    messages.set(u.sessionId, byModel);
  }
  const out: Record<string, SessionSpend> = {};
  for (const [id, c] of cost) {
    const models = [...(messages.get(id) ?? [])].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    out[id] = { cost: c, model: models[0]?.[0] ?? '' };
  }
  return out;
}

/** The models in use, most sessions first. */
export function modelsInUse(spend: Readonly<Record<string, SessionSpend>>): Array<[model: string, sessions: number]> {
  const n = new Map<string, number>();
  for (const s of Object.values(spend)) if (s.model) n.set(s.model, (n.get(s.model) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
