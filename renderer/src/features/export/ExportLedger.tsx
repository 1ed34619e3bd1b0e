/** What was shared before (main's ledger), newest first. */
import { useCanopy } from '../../app-context';

export function ExportLedger() {
  const ledger = useCanopy((s) => s.exporting.ledger);
  if (ledger.length === 0) return null;
  return (
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
  );
}
