import type { Args, CompareDto, LineageDto } from '../lib/shared';
import type { ActionContext, Outcome } from './action-context';

/** One side of a comparison: a session at its leaf, or at this entry. */
type CompareSide = Args<'session.compare'>['a'];

export interface CompareActions {
  /** The session's fork family (the compare picker's other sessions); null when it cannot be read. */
  lineage(sessionId: string): Promise<LineageDto | null>;
  /** The two branches from their common ancestor. */
  compare(a: CompareSide, b: CompareSide): Promise<Outcome<CompareDto>>;
}

export function createCompareActions({ api, check }: ActionContext): CompareActions {
  return {
    async lineage(sessionId) {
      const r = check(await api['session.lineage']({ sessionId }));
      return 'data' in r ? r.data : null;
    },
    compare: async (a, b) => check(await api['session.compare']({ a, b })),
  };
}
