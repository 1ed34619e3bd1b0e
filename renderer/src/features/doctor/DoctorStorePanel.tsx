/**
 * The doctor over the whole store: every listed session examined in the background, the damaged
 * ones listed with their marks and what a repair would write; each repaired on the user's word
 * (a new session next to it, the source unchanged) and opened from here.
 */
import { useEffect, useMemo, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import type { DoctorStoreRowDto } from '../../lib/shared';
import { useEscape } from '../../lib/use-escape';
import { useSessionTitle } from '../../ui/use-session-title';
import { NO_DOCTOR_REPORT } from '../../store/doctor-slice';
import '../../ui/store-dialog.css';
import './doctor.css';

export function DoctorStorePanel() {
  const [open, setOpen] = useState(false);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.doctorStore, run: () => setOpen(true) }], []);
  useContributedActions(contributed);
  if (!open) return null;
  return <DoctorStoreDialog onClose={() => setOpen(false)} />;
}

function what(row: DoctorStoreRowDto): string {
  if (row.files === 0) return 'nothing to write: pi 1.6.0 reads it as it is';
  if (row.readOnly) return `not repaired here: ${row.readOnly}`;
  return row.files === 1 ? 'a repaired copy' : `${row.files} sessions, one per session the file holds`;
}

function Row({ row, onClose }: { row: DoctorStoreRowDto; onClose: () => void }) {
  const actions = useActions();
  const title = useSessionTitle(row.sessionId, row.fileName);
  const { report, error, busy } = useCanopy((s) => s.doctorReports[row.sessionId] ?? NO_DOCTOR_REPORT);
  const done = report?.written ? report : null;
  const open = (id: string) => {
    onClose();
    void actions.openSession(id);
  };
  const repair = () => void actions.repairSession(row.sessionId);
  return (
    <tr data-testid="doctor-store-row">
      <td>
        <button type="button" className="store-row-button" onClick={() => open(row.sessionId)}>
          {title}
        </button>
      </td>
      <td>
        {row.kinds.map((k) => (
          <span key={k} className="chip">
            {k.replace(/_/g, ' ')}
          </span>
        ))}
      </td>
      <td className="small">
        {error ? (
          <span className="warn">{error}</span>
        ) : done ? (
          done.files.map((f) => (
            <div key={f.fileName} data-testid="doctor-store-written">
              Written {f.fileName}{' '}
              {f.sessionId && (
                <button type="button" className="link-button" onClick={() => open(f.sessionId!)}>
                  Open it
                </button>
              )}
            </div>
          ))
        ) : (
          what(row)
        )}
      </td>
      <td>
        {row.files > 0 && !done && !row.readOnly && (
          <button type="button" disabled={busy} onClick={repair} data-testid="doctor-store-repair">
            {busy ? 'Writing…' : 'Repair'}
          </button>
        )}
      </td>
    </tr>
  );
}

function DoctorStoreDialog({ onClose }: { onClose: () => void }) {
  useEscape(onClose);
  const actions = useActions();
  useEffect(() => actions.followDoctorStore(), [actions]);
  const report = useCanopy((s) => s.doctorStore);
  const error = useCanopy((s) => s.doctorStoreError);
  const refresh = () => void actions.loadDoctorStore(true);
  const running = report?.state === 'running';
  const rows = report?.sessions ?? [];
  return (
    <div
      className="store-overlay"
      role="dialog"
      aria-label="Doctor: the store"
      data-testid="doctor-store"
      onClick={onClose}
    >
      <div className="store-box" onClick={(e) => e.stopPropagation()}>
        <header className="store-head">
          <h2>Doctor</h2>
          <span className="muted small" data-testid="doctor-store-summary">
            {!report || running
              ? `examining sessions… ${report?.done ?? 0} of ${report?.total ?? '?'}`
              : `${rows.length} of ${report.total} sessions with damage old pi versions left`}
          </span>
          <span className="grow" />
          <button type="button" onClick={refresh} disabled={running}>
            Refresh
          </button>
          <button type="button" autoFocus onClick={onClose} aria-label="Close doctor">
            Close
          </button>
        </header>
        {(error ?? report?.error) && (
          <div className="search-error" role="alert">
            {error ?? report?.error}
          </div>
        )}
        <div className="store-body">
          <section>
            <p className="muted small">
              A repair writes a new session next to the damaged one (its parent is the source, which stays as it is);
              open a session for each mark in pi&apos;s words.
            </p>
            {rows.length > 0 && (
              <table className="store-table" data-testid="doctor-store-table">
                <thead>
                  <tr>
                    <th>session</th>
                    <th>marks</th>
                    <th>a repair writes</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <Row key={r.sessionId} row={r} onClose={onClose} />
                  ))}
                </tbody>
              </table>
            )}
            {report?.problems.length ? (
              <details className="muted small">
                <summary>
                  {report.problems.length === 1 ? '1 session' : `${report.problems.length} sessions`} could not be read
                </summary>
                <ul>
                  {report.problems.map((p) => (
                    <li key={p.sessionId}>{p.message}</li>
                  ))}
                </ul>
              </details>
            ) : null}
          </section>
        </div>
      </div>
    </div>
  );
}
