/** What Canopy moved to the trash, newest first, each with a Restore (put back where it was). */
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useActions, useCanopy } from '../../app-context';
import { formatDateTime } from '../../lib/format';
import { useEscape } from '../../lib/use-escape';
import { keepDialog } from './keep-state';

export function TrashDialog() {
  const open = useStore(keepDialog, (s) => s.open === 'trash');
  return open ? <TrashList /> : null;
}

function TrashList() {
  const actions = useActions();
  const trashed = useCanopy((s) => s.trashed);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const close = () => keepDialog.setState({ open: null });
  useEscape(close);
  useEffect(() => {
    void actions.loadTrashed().then(() => box.current?.querySelector<HTMLElement>('button[data-restore]')?.focus());
  }, [actions]);
  return (
    <div
      className="modal-backdrop"
      role="dialog"
      aria-modal="true"
      aria-label="Sessions in the trash"
      data-testid="trash-dialog"
      onClick={(e) => e.target === e.currentTarget && close()}
    >
      <div className="modal keep-box" ref={box}>
        <div className="modal-head">
          <h2>Trash</h2>
          <span className="grow" />
          <button type="button" className="compact" onClick={close} aria-label="Close">
            ✕
          </button>
        </div>
        {error && (
          <div className="error-note" role="alert">
            {error}
          </div>
        )}
        {trashed.length === 0 && <p className="muted pad">Canopy has trashed nothing.</p>}
        <ul className="keep-trashed">
          {trashed.map((t) => (
            <li key={t.id} data-testid="trashed-item">
              <span className="muted small keep-when">{formatDateTime(t.trashedAt)}</span>
              <span className="keep-files">
                {t.files.map((f) => (
                  <code key={f.path} title={f.path}>
                    {f.path.split(/[\\/]/).pop()}
                  </code>
                ))}
              </span>
              {t.restoredAt ? (
                <span className="muted small">restored</span>
              ) : (
                <button
                  type="button"
                  data-restore
                  data-testid="trash-restore"
                  onClick={() =>
                    void actions.restoreTrashed(t.id).then((r) => setError('error' in r ? r.error.message : null))
                  }
                >
                  Restore
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
