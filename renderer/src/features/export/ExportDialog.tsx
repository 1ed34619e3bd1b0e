/**
 * Export / share a session: format, which entries (the branch, the path to the selected entry or
 * the what-if leaf, or everything), redaction on by default with every replacement listed (masked)
 * before anything is written, the user's own redactions, then the write: Electron asks main for a
 * place (a new file only), `canopy serve` downloads. Lists what was shared before (the ledger).
 * Main's answers live in the store (`exporting`); the form's choices are this dialog's.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import { download } from './download';
import { exportRequest } from './export-model';
import { ExportForm, type ExportChoices } from './ExportForm';
import { ExportLedger } from './ExportLedger';
import { ExportPreview } from './ExportPreview';
import { RedactionsEditor } from './RedactionsEditor';
import './export.css';

export function ExportDialog() {
  const actions = useActions();
  const open = useCanopy((s) => s.exporting.open);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.exportSession, run: actions.openExport }], [actions]);
  useContributedActions(contributed);
  if (!open) return null;
  return <ExportBox />;
}

function ExportBox() {
  const actions = useActions();
  const sessionId = useCanopy((s) => s.openSessionId);
  const selected = useCanopy((s) => s.selectedEntryId);
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const { preview, result, writing } = useCanopy((s) => s.exporting);
  const [choices, setChoices] = useState<ExportChoices>({ format: 'html', scope: 'branch', redact: true });
  const [rulesSeq, setRulesSeq] = useState(0);
  const first = useRef<HTMLSelectElement>(null);

  const request = sessionId
    ? exportRequest(sessionId, choices.format, choices.scope, choices.redact, { selected, whatIf })
    : null;
  const key = JSON.stringify(request);
  useEffect(() => {
    if (request) void actions.previewExport(request);
    // The request is compared by its JSON (key); rulesSeq re-asks after the user's redactions change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions, key, rulesSeq]);
  useEffect(() => void actions.loadExportLedger(), [actions]);
  // Focus on opening and again after a write (its button, disabled while writing, lost it): Escape still closes.
  useEffect(() => {
    setTimeout(() => first.current?.focus(), 0);
  }, [result]);

  const write = () => {
    if (!request) return;
    void actions.writeExport(request).then((r) => {
      if (r?.content != null) download(r.fileName, r.content, request.format);
    });
  };
  return (
    <div
      className="export-overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Export session"
      data-testid="export-dialog"
      onKeyDown={(e) => {
        if (e.key === 'Escape') actions.closeExport();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) actions.closeExport();
      }}
    >
      <div className="export-box">
        <div className="export-head">
          <h2>Export / share</h2>
          <span className="grow" />
          <button type="button" className="compact" onClick={actions.closeExport} aria-label="Close">
            ✕
          </button>
        </div>
        {!sessionId ? (
          <p className="muted">Open a session first.</p>
        ) : (
          <>
            <ExportForm
              choices={choices}
              onChange={(patch) => setChoices((c) => ({ ...c, ...patch }))}
              selected={selected}
              whatIf={whatIf}
              first={first}
            />
            <ExportPreview redact={choices.redact} />
            {choices.redact && <RedactionsEditor onSaved={() => setRulesSeq((n) => n + 1)} />}
            <div className="export-actions">
              {result &&
                (result.writtenTo ? (
                  <span data-testid="export-result">Written to {result.writtenTo}</span>
                ) : result.content !== null ? (
                  <span data-testid="export-result">Downloaded {result.fileName}</span>
                ) : (
                  <span className="muted">Cancelled</span>
                ))}
              <span className="grow" />
              <button
                type="button"
                className="primary"
                disabled={!preview || writing}
                onClick={write}
                data-testid="export-write"
              >
                {writing ? 'Exporting…' : 'Export…'}
              </button>
            </div>
          </>
        )}
        <ExportLedger />
      </div>
    </div>
  );
}
