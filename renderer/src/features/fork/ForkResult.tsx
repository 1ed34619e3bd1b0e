import { countOf, oneLine } from '../../lib/format';
import { resumeCommandIn } from '../../lib/shared';
import { useActions, useCanopy } from '../../app-context';
import { CopyButton } from '../../ui/CopyButton';

/** After a fork: where the new file is, and the command that continues it in pi. */
export function ForkResult() {
  const actions = useActions();
  const outcome = useCanopy((s) => s.forkOutcome);
  const openId = useCanopy((s) => s.openSessionId);
  const dismiss = useCanopy((s) => s.setForkOutcome);
  if (!outcome) return null;
  const { result, sourceSessionId } = outcome;
  const here = openId === result.sessionId;
  const command = outcome.cwd ? resumeCommandIn(outcome.cwd, result.path) : result.command;
  return (
    <div className="fork-result" data-testid="fork-result" data-session-id={result.sessionId} role="status">
      <div className="fork-result-head">
        <strong>✓ New session written</strong>
        <span className="muted small">
          {countOf(result.entryCount, 'entry', 'entries')}
          {result.leafId ? ` · leaf ${result.leafId}` : ' · empty'}
        </span>
        <span className="grow" />
        {!here && (
          <button type="button" className="link-button" onClick={() => void actions.openSession(result.sessionId)}>
            open it
          </button>
        )}
        {openId !== sourceSessionId && (
          <button
            type="button"
            className="link-button"
            data-testid="fork-back"
            onClick={() => void actions.openSession(sourceSessionId)}
          >
            back to the source
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(null)}>
          ✕
        </button>
      </div>
      <div className="fork-command-row">
        <span className="muted small">Continue in pi:</span>
        <code className="fork-command" data-testid="fork-command" title={result.path}>
          {command}
        </code>
        <CopyButton text={command} label="copy" title="Copy the command" />
      </div>
      {outcome.editorText && (
        <div className="fork-command-row" data-testid="fork-editor-text">
          <span className="muted small">pi puts the message back in its editor:</span>
          <code className="fork-command">{oneLine(outcome.editorText, 120)}</code>
          <CopyButton text={outcome.editorText} label="copy message" title="Copy the message to paste into pi" />
        </div>
      )}
    </div>
  );
}
