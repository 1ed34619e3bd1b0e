/** What Canopy moved to the trash, newest first, each with a Restore (put back where it was). */
import { useEffect, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatDateTime } from '../../lib/format';
import { KeepModal } from './KeepModal';

export function TrashDialog() {
  const open = useCanopy((s) => s.keepDialog.open === 'trash');
  return open ? <TrashList /> : null;
}

function TrashList() {
  const actions = useActions();
  const trashed = useCanopy((s) => s.trashed);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const setDialog = useCanopy((s) => s.setKeepDialog);
  const close = () => setDialog({ open: null });
  useEffect(() => {
    void actions.loadTrashed().then(() => box.current?.querySelector<HTMLElement>('button[data-restore]')?.focus());
  }, [actions]);
  return (
    <KeepModal label="Sessions in the trash" testId="trash-dialog" title="Trash" onClose={close} boxRef={box}>
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
    </KeepModal>
  );
}
