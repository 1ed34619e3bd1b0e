/** What the export would hold: its name and size, and every replacement redaction makes (masked). */
import { useCanopy } from '../../app-context';
import { countByRule } from './export-model';

const SHOWN = 300;

export function ExportPreview({ redact }: { redact: boolean }) {
  const preview = useCanopy((s) => s.exporting.preview);
  const error = useCanopy((s) => s.exporting.error);
  const reps = preview?.replacements ?? [];
  return (
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
  );
}
