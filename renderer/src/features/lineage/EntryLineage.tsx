import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import type { LineageLinkDto } from '../../lib/shared';
import { ForkIcon } from '../../lib/icons';
import { lineageMarkers } from '../../model/lineage-model';
import { useLinkTitle, useOpenLink } from './LineageFlags';

export function SessionLink({ link, testId }: { link: LineageLinkDto; testId?: string }) {
  const open = useOpenLink();
  const title = useLinkTitle(link);
  return (
    <button
      type="button"
      className="session-link"
      data-testid={testId}
      data-session-id={link.sessionId}
      title={`${link.fileName} — open${link.forkPointEntryId ? ` at ${link.forkPointEntryId}` : ''}`}
      onClick={() => open(link)}
    >
      <ForkIcon size={10} /> {title}
    </button>
  );
}

/** In the inspector: sessions forked from this entry, or the parent this session left here. */
export function EntryLineage({ entryId }: { entryId: string }) {
  const lineage = useCanopy((s) => s.lineage);
  const markers = useMemo(() => lineageMarkers(lineage), [lineage]);
  const forks = markers.forksAt.get(entryId) ?? [];
  const parent = markers.parentAt?.entryId === entryId ? markers.parentAt.link : null;
  if (forks.length === 0 && !parent) return null;
  return (
    <section className="entry-lineage" data-testid="entry-lineage">
      {parent && (
        <div>
          <span className="muted small">This session was forked here from </span>
          <SessionLink link={parent} />
        </div>
      )}
      {forks.length > 0 && (
        <div>
          <span className="muted small">
            {forks.length === 1 ? 'A session was' : `${forks.length} sessions were`} forked here:{' '}
          </span>
          {forks.map((f) => (
            <SessionLink key={f.sessionId} link={f} />
          ))}
        </div>
      )}
    </section>
  );
}
