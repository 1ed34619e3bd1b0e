import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import { ForkIcon } from '../../lib/icons';
import { SessionLink } from './EntryLineage';
import { lineageMarkers } from '../../model/lineage-model';

const MAX_LINKS = 4;

/** Under the toolbar: this session's parent and the sessions forked from it. */
export function LineageBar() {
  const lineage = useCanopy((s) => s.lineage);
  const markers = useMemo(() => lineageMarkers(lineage), [lineage]);
  if (!lineage || (!lineage.parent && !lineage.missingParentPath && lineage.children.length === 0)) return null;
  const children = lineage.children;
  return (
    <div className="lineage-bar" data-testid="lineage-bar">
      <span className="lineage-icon" aria-hidden>
        <ForkIcon />
      </span>
      {lineage.parent ? (
        <span>
          <span className="muted">fork of </span>
          <SessionLink link={lineage.parent} testId="lineage-bar-parent" />
          {!markers.parentAt && <span className="muted"> (no shared entry: forked before the first prompt)</span>}
        </span>
      ) : (
        lineage.missingParentPath && (
          <span className="muted" title={lineage.missingParentPath}>
            fork of a session that is not listed ({lineage.missingParentPath.split(/[\\/]/).pop()})
          </span>
        )
      )}
      {children.length > 0 && (
        <span>
          <span className="muted">
            {lineage.parent || lineage.missingParentPath ? ' · ' : ''}
            {children.length} fork{children.length === 1 ? '' : 's'}:{' '}
          </span>
          {children.slice(0, MAX_LINKS).map((c) => (
            <SessionLink key={c.sessionId} link={c} testId="lineage-bar-child" />
          ))}
          {children.length > MAX_LINKS && <span className="muted"> +{children.length - MAX_LINKS}</span>}
        </span>
      )}
    </div>
  );
}
