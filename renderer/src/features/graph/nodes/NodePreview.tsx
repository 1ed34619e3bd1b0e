import { useEffect } from 'react';
import { useActions, useCanopy } from '../../../app-context';
import type { EntryNodeDto } from '../../../lib/shared';
import { previewMissing, previewText } from '../../../model/previews';

/**
 * A node's preview line. A node of a `pending` graph (drawn from the index) has none yet: it asks
 * for it once drawn (react-flow draws the nodes in view), and shows it when its batch arrives.
 */
export function NodePreview({ entry }: { entry: EntryNodeDto }) {
  const pending = useCanopy((s) => s.graph?.pending === true);
  // Selected to this node's own text and state, so a batch for other nodes does not redraw it.
  const text = useCanopy((s) => previewText(entry, s.lazyPreviews));
  const missing = useCanopy((s) => previewMissing(entry, s.lazyPreviews, pending));
  const actions = useActions();
  useEffect(() => {
    if (missing) actions.requestPreviews([entry.id]);
  }, [missing, actions, entry.id]);
  return (
    <span className={`node-preview${missing ? ' loading' : ''}`} data-testid={missing ? 'preview-loading' : undefined}>
      {text || '\u00a0'}
    </span>
  );
}
