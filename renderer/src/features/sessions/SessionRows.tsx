import { memo, type CSSProperties } from 'react';
import { countOf, formatBytes, formatDateTime, formatRelative, formatShortDate, shortCwd } from '../../lib/format';
import type { ProjectDto, SessionRowDto, SessionSummaryDto } from '../../lib/shared';
import { ForkIcon } from '../../lib/icons';
import { isFork, plainText, sessionTitle } from '../../model/session-title';
import { useRowSlots } from './row-slots';

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
}: {
  session: SessionRowDto;
  summary: SessionSummaryDto | null;
  depth: number;
  active: boolean;
  /** In the flat list the project is not in a heading above. */
  showCwd: boolean;
  onOpen: (sessionId: string) => void;
}) {
  const title = sessionTitle(session, summary);
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
        <span className={summary?.name ? 'named' : undefined}>{title}</span>
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
        {/* The flat list has less room: the project takes the size's place (the title shows it). */}
        {/* A fork's branch point takes the size's and count's place (the tooltip keeps the size). */}
        {!showCwd && !branched && <span>{formatBytes(session.sizeBytes)}</span>}
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
