/**
 * Archive stale fork families: the preview (which whole families, their sessions, the bytes freed,
 * where they go), a choice of families, then the move. Restore is `canopy archive --restore FOLDER`.
 */
import { useState } from 'react';
import { useActions } from '../../app-context';
import { formatBytes, formatDateTime } from '../../lib/format';
import type { ArchivePreviewDto, ArchiveResultDto } from '../../lib/shared';

export function ArchiveAction({
  staleDays,
  titleOf,
  onDone,
}: {
  staleDays: number;
  titleOf: (sessionId: string) => string;
  onDone: () => void;
}) {
  const actions = useActions();
  const [preview, setPreview] = useState<ArchivePreviewDto | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [result, setResult] = useState<ArchiveResultDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    setBusy(true);
    setResult(null);
    const r = await actions.archivePreview(staleDays);
    setBusy(false);
    if ('error' in r) return setError(r.error.message);
    setError(null);
    setPreview(r.data);
    setChosen(new Set(r.data.families.map((f) => f.familyId)));
  };
  const move = async () => {
    setBusy(true);
    const r = await actions.archive(staleDays, [...chosen]);
    setBusy(false);
    if ('error' in r) return setError(r.error.message);
    setResult(r.data);
    setPreview(null);
    onDone();
  };
  const bytes = preview?.families.filter((f) => chosen.has(f.familyId)).reduce((n, f) => n + f.bytes, 0) ?? 0;

  return (
    <section className="archive-action" data-testid="archive-action">
      <h3>Archive fork families not written for {staleDays} days</h3>
      {error && (
        <div className="search-error" role="alert">
          {error}
        </div>
      )}
      {!preview && (
        <button type="button" disabled={busy} onClick={() => void ask()} data-testid="archive-preview">
          Preview what would move
        </button>
      )}
      {preview && (
        <>
          <div className="small" role="status">
            {preview.families.length === 0
              ? 'No family is stale.'
              : `Whole families only, moved to ${preview.archiveDir} (outside the session folders); restore with canopy archive --restore FOLDER.`}
          </div>
          <ul className="archive-list">
            {preview.families.map((f) => (
              <li key={f.familyId}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(f.familyId)}
                    onChange={(e) => {
                      const next = new Set(chosen);
                      if (e.target.checked) next.add(f.familyId);
                      else next.delete(f.familyId);
                      setChosen(next);
                    }}
                  />{' '}
                  {titleOf(f.familyId)}{' '}
                  <span className="muted small">
                    · {f.sessionIds.length} session{f.sessionIds.length === 1 ? '' : 's'} · {formatBytes(f.bytes)} ·
                    last written {formatDateTime(f.lastWrite)}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy || chosen.size === 0}
            onClick={() => void move()}
            data-testid="archive-move"
          >
            Move {chosen.size} famil{chosen.size === 1 ? 'y' : 'ies'} ({formatBytes(bytes)}) to the archive
          </button>{' '}
          <button type="button" onClick={() => setPreview(null)}>
            Cancel
          </button>
        </>
      )}
      {result && (
        <div className="small" role="status" data-testid="archive-result">
          Moved {result.archived} famil{result.archived === 1 ? 'y' : 'ies'} ({formatBytes(result.bytes)})
          {result.kept > 0 ? `; kept ${result.kept} written since the preview` : ''}.
        </div>
      )}
    </section>
  );
}
