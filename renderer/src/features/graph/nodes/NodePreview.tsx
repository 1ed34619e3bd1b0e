import { useEffect } from 'react';
import { useActions, useCanopy } from '../../../app-context';
import type { EntryNodeDto } from '../../../lib/shared';

/**
 * A node's preview line. A node of a `pending` graph (drawn from the index) has none yet: it asks
 * for it once drawn (react-flow draws the nodes in view), and shows it when its batch arrives.
 */
export function NodePreview({ entry }: { entry: EntryNodeDto }) {
  const pending = useCanopy((s) => s.graph?.pending === true);
  const lazy = useCanopy((s) => (pending && !entry.preview ? s.lazyPreviews[entry.id]?.preview : undefined));
  const actions = useActions();
  const missing = pending && !entry.preview && lazy === undefined;
  useEffect(() => {
    if (missing) actions.requestPreviews([entry.id]);
  }, [missing, actions, entry.id]);
  const text = entry.preview || lazy;
  return (
    <span className={`node-preview${missing ? ' loading' : ''}`} data-testid={missing ? 'preview-loading' : undefined}>
      {text || '\u00a0'}
    </span>
  );
}
