/**
 * The doctor for the open session: the damage old pi versions left, each told in pi's words with
 * the versions that did it and what the repair does; then, on the user's word, the repaired file(s)
 * written next to the session as new sessions (the source stays as it is).
 */
import { useEffect, useMemo } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import type { DoctorReportDto } from '../../lib/shared';
import { useEscape } from '../../lib/use-escape';
import { NO_DOCTOR_REPORT } from '../../store/doctor-slice';
import '../../ui/store-dialog.css';
import './doctor.css';

function Report({ report }: { report: DoctorReportDto }) {
  return (
    <section className="doctor-report" data-testid="doctor-report">
      <div className="muted small">
        {report.fileName}
        {report.writer.length > 0 && <> · {report.writer.join('; ')}</>}
      </div>
      {report.marks.length === 0 ? (
        <p data-testid="doctor-healthy">Healthy: no damage from old pi versions.</p>
      ) : (
        <ul className="doctor-marks">
          {report.marks.map((m, i) => (
            <li key={i} data-testid="doctor-mark" data-kind={m.kind}>
              <div>
                <span className="chip">line {m.line}</span> {m.found}
              </div>
              <div className="muted small">
                {m.versions} ({m.issue}): {m.words}
              </div>
              <div className="small">
                <b>Repair:</b> {m.repair ?? 'none: pi 1.6.0 reads it as it is'}
              </div>
            </li>
          ))}
        </ul>
      )}
      {report.skipped.length > 0 && (
        <div className="muted small">
          Lines pi skips, left out of a repaired file: {report.skipped.map((s) => s.line).join(', ')}
        </div>
      )}
      {report.refused && <div className="warn">{report.refused}</div>}
    </section>
  );
}

export function DoctorDialog() {
  const actions = useActions();
  const open = useCanopy((s) => s.doctorOpen);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.doctorSession, run: actions.openDoctor }], [actions]);
  useContributedActions(contributed);
  if (!open) return null;
  return <DoctorBox onClose={actions.closeDoctor} />;
}

function DoctorBox({ onClose }: { onClose: () => void }) {
  useEscape(onClose);
  const actions = useActions();
  const sessionId = useCanopy((s) => s.openSessionId);
  const { report, error, busy } = useCanopy((s) => (sessionId && s.doctorReports[sessionId]) || NO_DOCTOR_REPORT);

  useEffect(() => {
    if (sessionId) void actions.examineSession(sessionId);
  }, [actions, sessionId]);

  const write = () => {
    if (sessionId) void actions.repairSession(sessionId);
  };
  const files = report?.files ?? [];
  return (
    <div className="store-overlay" role="dialog" aria-label="Doctor" data-testid="doctor-dialog" onClick={onClose}>
      <div className="store-box doctor-box" onClick={(e) => e.stopPropagation()}>
        <header className="store-head">
          <h2>Doctor</h2>
          <span className="muted small">damage old pi versions left in this session</span>
          <span className="grow" />
          <button type="button" autoFocus onClick={onClose} aria-label="Close doctor">
            Close
          </button>
        </header>
        <div className="store-body">
          {!sessionId && <p className="muted">Open a session first.</p>}
          {error && (
            <div className="search-error" role="alert">
              {error}
            </div>
          )}
          {sessionId && !report && !error && <p className="muted">Reading the session…</p>}
          {report && <Report report={report} />}
          {report?.readOnly && files.length > 0 && <p className="muted small">Not repaired here: {report.readOnly}</p>}
          {report && !report.readOnly && files.length > 0 && (
            <section className="doctor-actions" data-testid="doctor-files">
              {report.written ? (
                <ul>
                  {files.map((f) => (
                    <li key={f.fileName} data-testid="doctor-written">
                      Written {f.fileName}.{' '}
                      {f.sessionId && (
                        <button
                          type="button"
                          className="link-button"
                          onClick={() => {
                            onClose();
                            void actions.openSession(f.sessionId!);
                          }}
                        >
                          Open it
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <>
                  <span className="small">
                    {files.length === 1
                      ? 'A repaired copy, a new session next to this one, that pi 1.6.0 resumes. The source stays as it is.'
                      : `${files.length} new sessions next to this one, one per session the file holds. The source stays as it is.`}
                  </span>
                  <span className="grow" />
                  <button type="button" className="primary" disabled={busy} onClick={write} data-testid="doctor-write">
                    {busy ? 'Writing…' : files.length === 1 ? 'Write repaired copy' : `Write ${files.length} sessions`}
                  </button>
                </>
              )}
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
