import { useActions, useCanopy } from '../../app-context';
import { TargetIcon } from '../../lib/icons';

/** "What if this were the leaf?": shows the context pi would build from this entry. */
export function WhatIfButton({ entryId, compact = false }: { entryId: string; compact?: boolean }) {
  const actions = useActions();
  const setTab = useCanopy((s) => s.setRightTab);
  return (
    <button
      type="button"
      className={compact ? 'node-action' : 'action-button'}
      data-testid={compact ? 'node-what-if' : 'what-if-leaf'}
      title="What if this were the leaf? Show the context pi would send from here"
      onClick={(e) => {
        // On a node: do not also trigger the node's click.
        e.stopPropagation();
        setTab('context');
        void actions.setWhatIfLeaf(entryId);
      }}
    >
      <TargetIcon size={compact ? 10 : 11} />
      {compact ? 'what if leaf?' : 'What if this were the leaf?'}
    </button>
  );
}
