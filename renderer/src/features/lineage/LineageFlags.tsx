import type { ReactNode } from 'react';
import { useActions, useCanopy } from '../../app-context';
import type { LineageLinkDto } from '../../lib/shared';
import { ForkIcon } from '../../lib/icons';
import { sessionLabel } from '../../model/session-title';
import { linkName } from '../../model/lineage-model';

const MAX_FLAGS = 2;

/** The title the sidebar shows for a linked session, when the list knows it. */
export function useLinkTitle(link: LineageLinkDto): string {
  const row = useCanopy((s) => s.sessionList?.sessions.find((r) => r.sessionId === link.sessionId) ?? null);
  const summary = useCanopy((s) => s.summaries[link.sessionId] ?? null);
  return row ? sessionLabel(row, summary) : linkName(link);
}

/** Opens a linked session at its fork point (the entry both files hold), else where it opens by default. */
export function useOpenLink(): (link: LineageLinkDto) => void {
  const actions = useActions();
  return (link) =>
    void actions.openSession(link.sessionId, link.forkPointEntryId ? { entryId: link.forkPointEntryId } : {});
}

/** A flag that opens its session; the click does not also select the node under it. */
function LinkFlag({
  link,
  kind,
  title,
  children,
}: {
  link: LineageLinkDto;
  kind: 'child' | 'parent';
  title: string;
  children: ReactNode;
}) {
  const open = useOpenLink();
  return (
    <button
      type="button"
      className={`lineage-flag ${kind}`}
      data-testid={`lineage-${kind}`}
      data-session-id={link.sessionId}
      title={title}
      onClick={(e) => {
        e.stopPropagation();
        open(link);
      }}
    >
      {children}
    </button>
  );
}

function ChildFlag({ link }: { link: LineageLinkDto }) {
  const title = useLinkTitle(link);
  return (
    <LinkFlag link={link} kind="child" title={`Forked here into “${title}” (${link.fileName}) — click to open it`}>
      <ForkIcon size={10} />
      <span className="lineage-flag-text">{title}</span>
      <span aria-hidden>↗</span>
    </LinkFlag>
  );
}

function ParentFlag({ link }: { link: LineageLinkDto }) {
  const title = useLinkTitle(link);
  return (
    <LinkFlag
      link={link}
      kind="parent"
      title={`This session was forked here from “${title}” (${link.fileName}) — click to open the parent at this entry`}
    >
      <span aria-hidden>↖</span>
      <ForkIcon size={10} />
      <span className="lineage-flag-text">from parent</span>
    </LinkFlag>
  );
}

/** Flags above a node's top-right corner: sessions forked from this entry, or where this one left its parent. */
export function LineageFlags({
  entryId,
  forks,
  parent,
}: {
  entryId: string;
  forks: LineageLinkDto[];
  parent: LineageLinkDto | null;
}) {
  const actions = useActions();
  const more = forks.length - MAX_FLAGS;
  return (
    <div className="lineage-flags">
      {parent && <ParentFlag link={parent} />}
      {forks.slice(0, MAX_FLAGS).map((link) => (
        <ChildFlag key={link.sessionId} link={link} />
      ))}
      {more > 0 && (
        <button
          type="button"
          className="lineage-flag child more"
          title={`${more} more sessions forked here — select the entry to list them`}
          onClick={(e) => {
            e.stopPropagation();
            actions.selectEntry(entryId);
          }}
        >
          +{more}
        </button>
      )}
    </div>
  );
}
