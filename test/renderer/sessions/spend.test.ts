import { describe, expect, it } from 'vitest';
import { buildSidebarRows } from '../../../renderer/src/features/sessions/rows';
import { modelsInUse, spendBySession } from '../../../renderer/src/model/session-spend';
import type { UsageRowDto } from '../../../renderer/src/lib/shared';
import { syntheticList } from '../../fixtures/synthetic-list';

const usage = (sessionId: string, model: string, cost: number, messages: number): UsageRowDto =>
  ({ day: '2026-01-01', model, project: '/p', sessionId, familyId: sessionId, cost, messages }) as UsageRowDto;

describe('cost and model in the list', () => {
  it("sums a session's cost and names the model most of its messages went to", () => {
    const spend = spendBySession([usage('a', 'opus', 1, 2), usage('a', 'haiku', 0.5, 9), usage('b', 'opus', 3, 1)]);
    expect(spend).toEqual({ a: { cost: 1.5, model: 'haiku' }, b: { cost: 3, model: 'opus' } });
    expect(modelsInUse(spend)).toEqual([
      ['haiku', 1],
      ['opus', 1],
    ]);
  });

  it('sorts by cost (unknown last) and shows only a model', () => {
    const { list, summaries } = syntheticList(5);
    const [s0, s1, s2] = list.sessions.map((s) => s.sessionId);
    const spend = { [s0!]: { cost: 1, model: 'm1' }, [s1!]: { cost: 9, model: 'm2' }, [s2!]: { cost: 4, model: 'm1' } };
    const ids = (only = '') =>
      buildSidebarRows(list, summaries, { query: '', sort: 'cost', group: false, collapsed: {}, spend, only }).map(
        (r) => (r.kind === 'session' ? r.session.sessionId : r.key),
      );
    expect(ids().slice(0, 3)).toEqual([s1, s2, s0]);
    expect(ids('model:m1')).toEqual([s2, s0]);
  });
});
