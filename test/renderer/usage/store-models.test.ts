/** The Usage and Storage views' sums: by day in date order, by model by cost, families by bytes, staleness of whole families. */
import { describe, expect, it } from 'vitest';
import { familiesOf, isStale, totalsOf } from '../../../renderer/src/features/storage/storage-model';
import { applyFilter, sumBy, totalOf } from '../../../renderer/src/features/usage/usage-model';
import type { StorageRowDto, UsageRowDto } from '../../../electron/shared/store-dto';

const u = (day: string, model: string, sessionId: string, cost: number, billedCost = 0): UsageRowDto => ({
  day,
  provider: 'p',
  model,
  project: '/p',
  sessionId,
  familyId: sessionId,
  cost,
  messages: 1,
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  reasoning: 0,
  billedCost,
  unpricedMessages: 0,
  activeCost: cost,
  otherSessionsCost: 0,
  abandonedCost: 0,
  duplicateCost: 0.5,
  duplicateMessages: 1,
});

describe('usage model', () => {
  const rows = [u('2026-11-02', 'b', 's1', 1), u('2026-11-01', 'a', 's1', 2), u('2026-11-02', 'a', 's2', 4)];
  it('sums days in date order and models by cost', () => {
    expect(sumBy(rows, 'day').map((s) => [s.key, s.cost])).toEqual([
      ['2026-11-01', 2],
      ['2026-11-02', 5],
    ]);
    expect(sumBy(rows, 'model').map((s) => [s.key, s.cost])).toEqual([
      ['p/a', 6],
      ['p/b', 1],
    ]);
    expect(totalOf(rows)).toMatchObject({ cost: 7, messages: 3, duplicateCost: 1.5 });
  });
  it('lists the sessions of a picked day', () => {
    expect(sumBy(applyFilter(rows, { kind: 'day', value: '2026-11-02' }), 'sessionId').map((s) => s.key)).toEqual([
      's2',
      's1',
    ]);
  });
});

describe('storage model', () => {
  const s = (sessionId: string, familyId: string, total: number, modifiedAt: string): StorageRowDto => ({
    sessionId,
    project: '/p',
    familyId,
    modifiedAt,
    image: total / 2,
    toolOutput: 0,
    abandoned: 0,
    copied: 0,
    rest: total / 2,
    total,
  });
  const rows = [
    s('a', 'a', 10, '2026-01-01T00:00:00Z'),
    s('b', 'a', 30, '2026-11-01T00:00:00Z'),
    s('c', 'c', 20, '2026-01-01T00:00:00Z'),
  ];
  it('groups families by bytes, stale only when every member is', () => {
    const fams = familiesOf(rows);
    expect(fams.map((f) => [f.familyId, f.total, f.lastWrite])).toEqual([
      ['a', 40, '2026-11-01T00:00:00Z'],
      ['c', 20, '2026-01-01T00:00:00Z'],
    ]);
    const now = Date.parse('2026-11-15T00:00:00Z');
    expect(fams.map((f) => isStale(f, 30, now))).toEqual([false, true]);
    expect(totalsOf(rows)).toMatchObject({ image: 30, rest: 30, total: 60 });
  });
});
