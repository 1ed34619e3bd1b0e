import { useActions, useCanopy } from '../../app-context';

/** Follow the live leaf: on by default, paused by any manual move; shows what arrived meanwhile. */
export function FollowToggle({ unread = 0 }: { unread?: number }) {
  const following = useCanopy((s) => s.following);
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
