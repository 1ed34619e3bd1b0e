/**
 * Export / share a session: format, which entries (the branch, the path to the selected entry or
 * the what-if leaf, or everything), redaction on by default with every replacement listed (masked)
 * before anything is written, the user's own redactions, then the write: Electron asks main for a
 * place (a new file only), `canopy serve` downloads. Lists what was shared before (the ledger).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useActions, useCanopy } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import { CONTRIBUTED } from '../../commands/registry';
import type { ExportFormatDto, ExportPreviewDto, ExportWriteDto, LedgerEntryDto } from '../../lib/shared';
import { exportDialog } from './export-state';
import { countByRule, exportRequest, FORMAT_LABELS, type ExportScope } from './export-model';
import { RedactionsEditor } from './RedactionsEditor';
import './export.css';

const SHOWN = 300;

function download(name: string, text: string, format: ExportFormatDto): void {
  const type = format === 'html' ? 'text/html' : format === 'md' ? 'text/markdown' : 'application/x-ndjson';
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ExportDialog() {
  const actions = useActions();
  const open = useStore(exportDialog, (s) => s.open);
  const sessionId = useCanopy((s) => s.openSessionId);
  const selected = useCanopy((s) => s.selectedEntryId);
  const whatIf = useCanopy((s) => s.whatIfLeaf?.entryId ?? null);
  const [format, setFormat] = useState<ExportFormatDto>('html');
  const [scope, setScope] = useState<ExportScope>('branch');
  const [redact, setRedact] = useState(true);
  const [preview, setPreview] = useState<ExportPreviewDto | null>(null);
  const [result, setResult] = useState<ExportWriteDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ledger, setLedger] = useState<LedgerEntryDto[]>([]);
  const [rulesSeq, setRulesSeq] = useState(0);
  const first = useRef<HTMLSelectElement>(null);

  const contributed = useMemo(
    () => [{ ...CONTRIBUTED.exportSession, run: () => exportDialog.setState({ open: true }) }],
    [],
  );
  useContributedActions(contributed);
  const close = () => exportDialog.setState({ open: false });

  const request = sessionId ? exportRequest(sessionId, format, scope, redact, { selected, whatIf }) : null;
  const key = JSON.stringify(request);
  useEffect(() => {
    if (!open || !request) return;
    let live = true;
    setPreview(null);
    setError(null);
    setResult(null);
    void actions.exportPreview(request).then((r) => {
      if (!live) return;
      if ('data' in r) setPreview(r.data);
      else setError(r.error.message);
    });
    return () => {
      live = false;
    };
    // The request is compared by its JSON (key); rulesSeq re-asks after the user's redactions change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions, open, key, rulesSeq]);

  useEffect(() => {
    if (!open) return;
    setTimeout(() => first.current?.focus(), 0);
    void actions.exportLedger().then((r) => 'data' in r && setLedger(r.data));
  }, [actions, open, result]);

  if (!open) return null;
  const write = () => {
    if (!request) return;
    setBusy(true);
    void actions.exportWrite(request).then((r) => {
      setBusy(false);
      if ('error' in r) return setError(r.error.message);
      if (r.data.content !== null) download(r.data.fileName, r.data.content, request.format);
      setResult(r.data);
    });
  };
  const reps = preview?.replacements ?? [];
  return (
    <div
      className="export-overlay"
      role="dialog"
      aria-modal="true"
      aria-label="Export session"
      data-testid="export-dialog"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) close();
      }}
    >
      <div className="export-box">
        <div className="export-head">
          <h2>Export / share</h2>
          <span className="grow" />
          <button type="button" className="compact" onClick={close} aria-label="Close">
            ✕
          </button>
        </div>
        {!sessionId ? (
          <p className="muted">Open a session first.</p>
        ) : (
          <>
            <div className="export-form">
              <label>
                Format{' '}
                <select ref={first} value={format} onChange={(e) => setFormat(e.target.value as ExportFormatDto)}>
                  {(Object.keys(FORMAT_LABELS) as ExportFormatDto[]).map((f) => (
                    <option key={f} value={f}>
                      {FORMAT_LABELS[f]}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Entries{' '}
                <select
                  value={scope}
                  onChange={(e) => setScope(e.target.value as ExportScope)}
                  data-testid="export-scope"
                >
                  <option value="branch">the current branch</option>
                  {selected && <option value="selected">the path to the selected entry</option>}
                  {whatIf && <option value="whatif">the path to the what-if leaf</option>}
                  <option value="all">the whole session</option>
                </select>
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={redact}
                  onChange={(e) => setRedact(e.target.checked)}
                  data-testid="export-redact"
                />{' '}
                Redact secrets
              </label>
            </div>
            <div className="export-preview" data-testid="export-preview">
              {error && <div className="error">{error}</div>}
              {!preview && !error && <div className="muted">Preparing the preview…</div>}
              {preview && (
                <>
                  <div>
                    <b>{preview.suggestedName}</b> · {Math.ceil(preview.bytes / 1024)} KiB · leaf{' '}
                    <code>{preview.leafId ?? 'all entries'}</code>
                  </div>
                  {redact ? (
                    <div data-testid="export-replacements">
                      Replaces {countByRule(reps.map((r) => r.rule))} by <code>[REDACTED:rule]</code>
                    </div>
                  ) : (
                    <div className="warn">Not redacted: the file holds every value as written.</div>
                  )}
                  {redact && reps.length > 0 && (
                    <ul className="export-reps">
                      {reps.slice(0, SHOWN).map((r, i) => (
                        <li key={i}>
                          <code>{r.entryId}</code> <span className="muted">{r.pointer}</span> <span>{r.rule}</span>{' '}
                          <code>{r.masked}</code>
                        </li>
                      ))}
                      {reps.length > SHOWN && <li className="muted">… {reps.length - SHOWN} more</li>}
                    </ul>
                  )}
                </>
              )}
            </div>
            {redact && <RedactionsEditor onSaved={() => setRulesSeq((n) => n + 1)} />}
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
                disabled={!preview || busy}
                onClick={write}
                data-testid="export-write"
              >
                {busy ? 'Exporting…' : 'Export…'}
              </button>
            </div>
          </>
        )}
        {ledger.length > 0 && (
          <details className="export-ledger">
            <summary>Shared before ({ledger.length})</summary>
            <ul>
              {ledger.slice(0, 50).map((e, i) => (
                <li key={i}>
                  {new Date(e.time).toLocaleString()} · {e.format}
                  {e.redacted ? ' · redacted' : ' · not redacted'} · <code>{e.sessionId.slice(0, 13)}</code>
                  {e.leafId ? ` @${e.leafId}` : ''} → {e.writtenTo}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </div>
  );
}
