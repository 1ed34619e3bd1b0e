import { useEffect, useState } from 'react';
import { countOf, oneLine } from '../../lib/format';
import { resumeCommandIn, type PiHandbackDto } from '../../lib/shared';
import { useActions, useCanopy } from '../../app-context';
import { CopyButton } from '../../ui/CopyButton';

/** A pi running Canopy's package that could take the fork now (pi asks its user first). */
function useHandback(sessionId: string | undefined) {
  const actions = useActions();
  const [pi, setPi] = useState<PiHandbackDto['pi']>(null);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    setPi(null);
    setSaid(null);
    if (!sessionId) return;
    let live = true;
    void actions.findHandback(sessionId).then((found) => live && setPi(found));
    return () => {
      live = false;
    };
  }, [actions, sessionId]);
  const send = async () => {
    if (sessionId) setSaid(await actions.handBack(sessionId));
  };
  return { pi, said, send };
}

/** After a fork: where the new file is, and the command that continues it in pi. */
export function ForkResult() {
  const actions = useActions();
  const outcome = useCanopy((s) => s.forkOutcome);
  const openId = useCanopy((s) => s.openSessionId);
  const dismiss = useCanopy((s) => s.setForkOutcome);
  const handback = useHandback(outcome?.result.sessionId);
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
      {handback.pi && (
        <div className="fork-command-row" data-testid="fork-handback-row">
          <span className="muted small">Or live, in the running pi:</span>
          <button
            type="button"
            className="link-button"
            data-testid="fork-handback"
            title={`pi (process ${handback.pi.pid}) asks you before it switches`}
            onClick={() => void handback.send()}
          >
            switch it to this fork
          </button>
          {handback.said && (
            <span className="muted small" data-testid="fork-handback-status" role="status">
              {handback.said}
            </span>
          )}
        </div>
      )}
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
