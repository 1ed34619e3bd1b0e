/**
 * The open session's findings (a banner over the graph): each a link to its entry, its value
 * masked until the user reveals that one on purpose.
 */
import { useEffect, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import type { SessionSecretsDto } from '../../lib/shared';
import { KeyIcon } from './KeyIcon';

/** While the radar scans, how far it got (this session may not have been reached yet). */
function ScanProgress() {
  const status = useCanopy((s) => s.secretsStatus);
  if (!status?.scanning || status.total < 2) return null;
  return (
    <div className="secrets-progress muted small" data-testid="secrets-progress" role="status">
      Looking for secrets: {status.done} of {status.total} sessions
    </div>
  );
}

export function SessionSecrets() {
  const actions = useActions();
  const sessionId = useCanopy((s) => s.openSessionId);
  const count = useCanopy((s) => (sessionId ? (s.secretCounts[sessionId] ?? 0) : 0));
  const [data, setData] = useState<SessionSecretsDto | null>(null);
  const [open, setOpen] = useState(false);
  const [revealed, setRevealed] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setData(null);
    setRevealed({});
    setError(null);
    if (!sessionId || count === 0) return;
    let live = true;
    void actions.sessionSecrets(sessionId).then((r) => {
      if (!live) return;
      if ('data' in r) setData(r.data);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
  }, [actions, sessionId, count]);

  if (!sessionId) return null;
  if (count === 0) return <ScanProgress />;
  const findings = data?.findings ?? [];
  const reveal = (i: number) => {
    void actions.revealSecret(sessionId, i).then((r) => {
      if ('data' in r) setRevealed((v) => ({ ...v, [i]: r.data }));
      else setError(r.error.message);
    });
  };
  return (
    <div className="secrets-banner" data-testid="session-secrets">
      <button type="button" className="secrets-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <KeyIcon /> {count} possible secret{count === 1 ? '' : 's'} in this session {open ? '▾' : '▸'}
      </button>
      {open && (
        <ul className="secrets-list" aria-label="Possible secrets">
          {error && <li className="error">{error}</li>}
          {findings.map((f, i) => (
            <li key={`${f.entryId}:${f.pointer}:${i}`} data-testid="secret-finding">
              <button
                type="button"
                className="link-button"
                title={`Show entry ${f.entryId} (line ${f.line}, ${f.pointer})`}
                onClick={() => actions.selectEntry(f.entryId, { focus: true })}
              >
                line {f.line} · {f.entryId}
              </button>
              <span className="secrets-rule">{f.rule}</span>
              <code className="secrets-value" data-testid="secret-value">
                {revealed[i] ?? f.masked}
              </code>
              {revealed[i] === undefined ? (
                <button type="button" className="compact" onClick={() => reveal(i)}>
                  Reveal
                </button>
              ) : (
                <button
                  type="button"
                  className="compact"
                  onClick={() =>
                    setRevealed((v) => {
                      const { [i]: _gone, ...rest } = v;
                      return rest;
                    })
                  }
                >
                  Hide
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
