import { ReactFlowProvider } from '@xyflow/react';
import type { ReactNode } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatBytes } from '../../lib/format';
import { isNoteIssue, type IssueDto } from '../../lib/shared';
import { ProgressLine } from '../../ui/ProgressLine';
import { GraphCanvas } from './GraphCanvas';
import { GraphToolbar } from './GraphToolbar';
import { NodeSlotsContext, type NodeSlots } from './node-slots';
import { useGraphModel } from './useGraphModel';

/**
 * `banners`: other features' bars above the canvas; `nodeSlots`: what they draw on a node;
 * `toolbarExtras`: their controls in the toolbar; `body`: drawn instead of the canvas (all from the shell).
 */
export function GraphPanel({
  banners,
  nodeSlots = NO_SLOTS,
  toolbarExtras,
  body,
}: {
  banners?: ReactNode;
  nodeSlots?: NodeSlots;
  toolbarExtras?: ReactNode;
  body?: ReactNode;
}) {
  const model = useGraphModel();
  const openSessionId = useCanopy((s) => s.openSessionId);
  const opening = useCanopy((s) => s.opening);
  const openProgress = useCanopy((s) => s.openProgress);
  const openError = useCanopy((s) => s.openError);
  const actions = useActions();

  if (!openSessionId) {
    return (
      <section className="graph-panel empty" aria-label="Graph">
        <div className="placeholder">
          <div className="placeholder-title">No session open</div>
          <div className="muted">
            Pick a session on the left. Its entries appear here as a tree, with the path to the current leaf
            highlighted.
          </div>
        </div>
      </section>
    );
  }
  if (openError?.code === 'cancelled' && !model) {
    return (
      <section className="graph-panel empty" aria-label="Graph">
        <div className="placeholder" data-testid="open-cancelled">
          <div className="placeholder-title">Opening cancelled</div>
          <button type="button" className="link-button" onClick={() => void actions.openSession(openSessionId)}>
            Open again
          </button>
        </div>
      </section>
    );
  }
  if (openError && !model) {
    return (
      <section className="graph-panel empty" aria-label="Graph">
        <div className="placeholder error" role="alert" data-testid="open-error">
          <div className="placeholder-title">Cannot open this session</div>
          <div>{openError.message}</div>
          <code className="muted small">{openError.code}</code>
        </div>
      </section>
    );
  }
  if (!model) {
    return (
      <section className="graph-panel empty" aria-label="Graph" aria-busy="true">
        <div className="placeholder">
          {opening ? (
            <ProgressLine
              label={
                openProgress?.phase === 'previews'
                  ? 'Reading entries for the graph…'
                  : openProgress
                    ? 'Indexing the session file…'
                    : 'Opening session…'
              }
              progress={openProgress}
              format={formatBytes}
              onCancel={() => void actions.cancelOpen()}
              testId="open-progress"
            />
          ) : null}
        </div>
      </section>
    );
  }
  return (
    <section
      className="graph-panel"
      aria-label="Graph"
      data-testid="graph-panel"
      data-session-id={model.graph.sessionId}
      data-profile={model.graph.profile}
      data-leaf-id={model.graph.leafId ?? undefined}
    >
      <GraphToolbar model={model} extras={toolbarExtras} />
      {banners}
      {model.graph.issues.length > 0 && <IssuesBanner issues={model.graph.issues} />}
      {openError && (
        <div className="error-note" role="alert">
          Reload failed: {openError.message}
        </div>
      )}
      {body ?? (
        <ReactFlowProvider>
          <NodeSlotsContext.Provider value={nodeSlots}>
            <GraphCanvas model={model} />
          </NodeSlotsContext.Provider>
        </ReactFlowProvider>
      )}
    </section>
  );
}

const NO_SLOTS: NodeSlots = {};
const MAX_ISSUES = 200;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "⚠ 2 issues in this file · 3 notes", or only "3 notes on this file" when nothing is wrong. */
export function issuesSummary(issues: readonly IssueDto[]): string {
  const notes = issues.filter(isNoteIssue).length;
  const warnings = issues.length - notes;
  if (warnings === 0) return `${plural(notes, 'note')} on this file (long lines read in full)`;
  return `⚠ ${plural(warnings, 'issue')} in this file${notes ? ` · ${plural(notes, 'note')}` : ''}`;
}

function IssuesBanner({ issues }: { issues: IssueDto[] }) {
  return (
    <details className={issues.every(isNoteIssue) ? 'issues notes-only' : 'issues'} data-testid="issues">
      <summary>{issuesSummary(issues)}</summary>
      <ul>
        {issues.slice(0, MAX_ISSUES).map((issue, i) => (
          <li key={i}>
            <span className="issue-line">line {issue.line}</span> <code>{issue.kind}</code> {issue.message}
          </li>
        ))}
        {issues.length > MAX_ISSUES && <li className="muted">… {issues.length - MAX_ISSUES} more</li>}
      </ul>
    </details>
  );
}
