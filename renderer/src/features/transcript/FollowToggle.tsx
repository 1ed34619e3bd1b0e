import { useMemo } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { treeIndexOf } from '../../model/tree-index';
import { unreadSince } from './transcript-model';

/** Follow the live leaf: on by default, paused by any manual move; shows what arrived meanwhile. */
export function FollowToggle() {
  const following = useCanopy((s) => s.following);
  const graph = useCanopy((s) => s.graph);
  const lastSeen = useCanopy((s) => s.lastSeenLeafId);
  const unread = useMemo(
    () => (graph && lastSeen ? unreadSince(treeIndexOf(graph), graph.leafId, lastSeen) : 0),
    [graph, lastSeen],
  );
  const actions = useActions();
  return (
    <button
      type="button"
      className={`icon-button follow-toggle${following ? ' on' : ''}`}
      aria-pressed={following}
      data-testid="follow-toggle"
      title={following ? 'Following the leaf as the session grows: click to pause' : 'Follow the leaf again'}
      onClick={() => (following ? actions.pauseFollow() : actions.resumeFollow())}
    >
      {following ? '● following' : 'follow'}
      {!following && unread > 0 && <span className="unread-badge">{unread} new</span>}
    </button>
  );
}
