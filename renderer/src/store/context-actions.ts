import { shareIds } from '../model/context-order';
import type { ActionContext } from './action-context';

export interface ContextActions {
  /** What reaches the model at the current leaf, or at the what-if leaf when one is set. */
  loadContext(): Promise<void>;
  /** "What if this were the leaf?" (null: back to the profile's current leaf). */
  setWhatIfLeaf(entryId: string | null): Promise<void>;
  loadLineage(): Promise<void>;
}

export function createContextActions({ api, s, check, actions }: ActionContext): ContextActions {
  let contextSeq = 0;
  let lineageSeq = 0;

  async function loadContext() {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++contextSeq;
    const profile = s().profileOverride;
    const whatIf = s().whatIfLeaf;
    s().startContext();
    const r = check(
      await api['session.context']({
        sessionId,
        ...(profile ? { profile } : {}),
        ...(whatIf ? { leafId: whatIf.entryId } : {}),
      }),
    );
    if (seq !== contextSeq) return;
    if ('error' in r) s().setContextError(r.error);
    else {
      s().setContextView(shareIds(r.data, s().graph));
      actions.contextLanded();
    }
  }

  async function setWhatIfLeaf(asked: string | null) {
    // The current leaf as a what-if leaf is just the current context.
    const entryId = asked !== null && asked === s().graph?.leafId ? null : asked;
    const current = s().whatIfLeaf?.entryId ?? null;
    if (current === entryId && s().contextView) return;
    s().setWhatIfLeaf(entryId);
    await loadContext();
  }

  async function loadLineage() {
    const sessionId = s().openSessionId;
    if (!sessionId) return;
    const seq = ++lineageSeq;
    const r = check(await api['session.lineage']({ sessionId }));
    if (seq !== lineageSeq) return;
    // A missing lineage only hides the family markers; the session itself is fine.
    s().setLineage('error' in r ? null : r.data);
  }

  return { loadContext, setWhatIfLeaf, loadLineage };
}
