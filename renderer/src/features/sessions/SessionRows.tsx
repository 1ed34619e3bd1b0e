import { memo, useMemo, type CSSProperties } from 'react';
import {
  countOf,
  formatBytes,
  formatCost,
  formatDateTime,
  formatRelative,
  formatShortDate,
  shortCwd,
} from '../../lib/format';
import type { KeepRecordDto, ProjectDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { ForkIcon } from '../../lib/icons';
import { isFork, plainText, sessionTitle } from '../../model/session-title';
import { parseRankQuery, rankSession, type RankField, type RankHit } from '../../model/session-rank';
import { Marked } from '../../ui/Marked';
import { sessionDoc, titleField } from '../../model/session-doc';
import { useRowSlots } from './row-slots';
import './sessions.css';

/** How a match outside the title is introduced under it. */
const FIELD_LABELS: Record<RankField, string> = {
  name: 'name',
  piName: 'pi name',
  tag: 'tag',
  note: 'note',
  id: 'id',
  text: 'text',
  cwd: 'cwd',
};

const INDENT = 14;
/** Deeper fork chains stop indenting (the row would run out of room). */
const MAX_INDENT = 4;

export const ProjectRow = memo(function ProjectRow({
  project,
  shown,
  collapsed,
  onToggle,
}: {
  project: ProjectDto;
  shown: number;
  collapsed: boolean;
  onToggle: (cwd: string) => void;
}) {
  return (
    <button
      type="button"
      tabIndex={-1}
      className="project-row"
      data-testid="project-row"
      aria-expanded={!collapsed}
      title={project.cwd}
      onClick={() => onToggle(project.cwd)}
    >
      <span className="chevron" aria-hidden>
        {collapsed ? '▸' : '▾'}
      </span>
      <span className="project-cwd">{shortCwd(project.cwd)}</span>
      <span className="pill" title={countOf(project.sessionCount, 'session')}>
        {shown === project.sessionCount ? project.sessionCount : `${shown}/${project.sessionCount}`}
      </span>
      <span className="muted small" title={`Last activity ${formatDateTime(project.lastActivity)}`}>
        {formatRelative(project.lastActivity)}
      </span>
    </button>
  );
});

function indentStyle(depth: number): CSSProperties {
  const left = 22 + Math.min(depth, MAX_INDENT) * INDENT;
  return { paddingLeft: left, ['--indent-left' as string]: `${left}px` };
}

export const SessionRow = memo(function SessionRow({
  session,
  summary,
  depth,
  active,
  showCwd,
  onOpen,
  hit = null,
  query = '',
  keep,
  cost,
}: {
  session: SessionRowDto;
  summary: SessionSummaryDto | null;
  /** How the filter matched: highlighted in the title, or on a line of its own. */
  hit?: RankHit | null;
  /** The filter (the marks are found again for a drawn row). */
  query?: string;
  /** Shown when the list is sorted by cost. */
  cost?: number | undefined;
  /** Canopy's name, tags, pin and note for it. */
  keep?: KeepRecordDto | undefined;
  depth: number;
  active: boolean;
  /** In the flat list the project is not in a heading above. */
  showCwd: boolean;
  onOpen: (sessionId: string) => void;
}) {
  const piName = summary?.name?.trim() || '';
  const title = keep?.name || sessionTitle(session, summary);
  // The field the title shows, so a match in it is marked there (and a long one is windowed, never clipped).
  const shows = titleField(summary, keep);
  const marks = useMemo(
    () => (hit && query ? (rankSession(sessionDoc(session, summary, keep), parseRankQuery(query))?.marks ?? []) : []),
    [hit, query, session, summary, keep],
  );
  const titleMark = marks.find((m) => m.field === shows);
  const otherMark = marks.find((m) => m.field !== shows);
  const forked = isFork(session);
  // Where a fork left its parent: the last message it copied (its title is its own first one).
  const branched = forked && summary?.branchedAfter ? plainText(summary.branchedAfter) : '';
  const { Marker } = useRowSlots();
  return (
    <div
      className={`session-row${active ? ' active' : ''}${depth > 0 ? ' nested' : ''}`}
      data-testid="session-row"
      data-session-id={session.sessionId}
      data-depth={depth}
      data-parent-session-id={session.parentSessionId ?? undefined}
      style={depth > 0 ? indentStyle(depth) : undefined}
      aria-current={active ? 'true' : undefined}
      title={`${title}${branched ? `\nbranched after “${branched}”` : ''}\n${session.path}\n${formatBytes(session.sizeBytes)}`}
      onClick={() => onOpen(session.sessionId)}
    >
      <div className="session-title">
        {forked && (
          <span
            className="fork-marker"
            data-testid="fork-marker"
            title={`Fork of ${session.parentSessionPath ?? session.parentSessionId}${session.parentSessionId ? ' (click to open the parent)' : ''}`}
            onClick={(e) => {
              if (!session.parentSessionId) return;
              e.stopPropagation();
              onOpen(session.parentSessionId);
            }}
          >
            <ForkIcon />
          </span>
        )}
        {keep?.pinned && (
          <span className="pin-marker" data-testid="pin-marker" title="Pinned">
            📌
          </span>
        )}
        <span className={`title-text${keep?.name || piName ? ' named' : ''}`} data-testid="session-title">
          {titleMark ? <Marked text={titleMark.text} ranges={titleMark.ranges} window={90} /> : title}
        </span>
        {keep?.name && piName && keep.name !== piName && (
          <span className="pi-name muted small" title="pi's own name (session_info)">
            pi: {piName}
          </span>
        )}
        {keep?.tags?.map((t) => (
          <span key={t} className="tag-pill" data-testid="tag-pill">
            #{t}
          </span>
        ))}
        {summary && summary.issueCount > 0 && (
          <span
            className="damage-marker"
            data-testid="damage-marker"
            title={`${summary.issueCount} damaged line${summary.issueCount === 1 ? '' : 's'} or header problem${summary.issueCount === 1 ? '' : 's'}: open the session for details`}
          >
            !
          </span>
        )}
        {Marker && <Marker sessionId={session.sessionId} />}
      </div>
      {otherMark && (
        <div className="session-match" data-testid="session-match" data-field={otherMark.field}>
          <span className="muted">{FIELD_LABELS[otherMark.field]}:</span>{' '}
          <Marked text={otherMark.text} ranges={otherMark.ranges} window={70} />
        </div>
      )}
      <div className="session-meta">
        {branched && (
          <span className="session-branch" data-testid="branched-after">
            after “{branched}”
          </span>
        )}
        {showCwd && (
          <span className="session-cwd" title={session.cwd}>
            {shortCwd(session.cwd)}
          </span>
        )}
        <span title={`Modified ${formatDateTime(session.modifiedAt)}`}>{formatRelative(session.modifiedAt)}</span>
        <span className="size" data-testid="session-size">
          {formatBytes(session.sizeBytes)}
        </span>
        {cost !== undefined && <span data-testid="session-cost">{formatCost(cost)}</span>}
        {!branched && (
          <span className="count">{summary ? countOf(summary.entryCount, 'entry', 'entries') : '… entries'}</span>
        )}
        <span className="created" title={`Created ${formatDateTime(session.createdAt)}`}>
          {formatShortDate(session.createdAt)}
        </span>
      </div>
    </div>
  );
});
