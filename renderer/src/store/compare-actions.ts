import type { Args } from '../lib/shared';
import type { ActionContext } from './action-context';

/** One side of a comparison: a session at its leaf, or at this entry. */
type CompareSide = Args<'session.compare'>['a'];

export interface CompareActions {
  /**
   * The two branches from their common ancestor, into the store (its error too). A second ask while
   * one runs is ignored. (The picker's other sessions are the open session's family: `lineage`.)
   */
  compare(a: CompareSide, b: CompareSide): Promise<void>;
  /** Back to the picker: the comparison shown and its error are dropped. */
  clearComparison(): void;
}

export function createCompareActions({ api, s, check }: ActionContext): CompareActions {
  return {
    async compare(a, b) {
      if (s().comparison.busy) return;
      s().setComparison({ busy: true, error: null });
      const r = check(await api['session.compare']({ a, b }));
      s().setComparison('data' in r ? { busy: false, result: r.data } : { busy: false, error: r.error.message });
    },
    clearComparison: () => s().setComparison({ result: null, error: null }),
  };
}
