import { countOf } from '../../lib/format';
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
          {result.command}
        </code>
        <CopyButton text={result.command} label="copy" title="Copy the command" />
      </div>
    </div>
  );
}
