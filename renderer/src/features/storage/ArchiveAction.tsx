/**
 * Archive stale fork families: the preview (which whole families, their sessions, the bytes freed,
 * where they go), a choice of families, then the move. Restore is `canopy archive --restore FOLDER`.
 */
import { useEffect, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatBytes, formatDateTime } from '../../lib/format';

export function ArchiveAction({ staleDays, titleOf }: { staleDays: number; titleOf: (sessionId: string) => string }) {
  const actions = useActions();
  const { preview, result, error, busy } = useCanopy((s) => s.archive);
  // Which of the previewed families to move (every one, until the user unticks some).
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  useEffect(() => setChosen(new Set(preview?.families.map((f) => f.familyId))), [preview]);

  useEffect(() => actions.clearArchive(), [actions]);
  const ask = () => void actions.previewArchive(staleDays);
  const move = () => void actions.archiveFamilies(staleDays, [...chosen]);
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
        <button type="button" disabled={busy} onClick={ask} data-testid="archive-preview">
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
          <button type="button" disabled={busy || chosen.size === 0} onClick={move} data-testid="archive-move">
            Move {chosen.size} famil{chosen.size === 1 ? 'y' : 'ies'} ({formatBytes(bytes)}) to the archive
          </button>{' '}
          <button type="button" onClick={actions.clearArchive}>
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
