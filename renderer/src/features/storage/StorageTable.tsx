/** The Storage view's table: sessions by bytes (a click chooses one for a slim copy), or fork families. */
import { formatBytes, formatDateTime } from '../../lib/format';
import type { StorageRowDto } from '../../lib/shared';
import { isStale, PARTS, type FamilyBytes } from './storage-model';

const SHOWN = 100;

export function StorageTable({
  view,
  rows,
  families,
  chosen,
  onChoose,
  titleOf,
  staleDays,
  now,
}: {
  view: 'sessions' | 'families';
  rows: StorageRowDto[];
  families: FamilyBytes[];
  chosen: string | null;
  onChoose: (sessionId: string) => void;
  titleOf: (id: string) => string;
  staleDays: number;
  now: number;
}) {
  return (
    <table className="store-table" data-testid="storage-table">
      <thead>
        <tr>
          <th>{view === 'sessions' ? 'session' : 'family (oldest session)'}</th>
          <th className="num">bytes</th>
          {PARTS.map((p) => (
            <th key={p.key} className="num">
              {p.label}
            </th>
          ))}
          <th>{view === 'sessions' ? 'written' : 'last written'}</th>
        </tr>
      </thead>
      <tbody>
        {view === 'sessions'
          ? rows.slice(0, SHOWN).map((r) => (
              <tr key={r.sessionId} className={chosen === r.sessionId ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    title="Slim copy of this session…"
                    onClick={() => onChoose(r.sessionId)}
                  >
                    {titleOf(r.sessionId)}
                  </button>
                </td>
                <td className="num">{formatBytes(r.total)}</td>
                {PARTS.map((p) => (
                  <td key={p.key} className="num muted">
                    {r[p.key] ? formatBytes(r[p.key]) : ''}
                  </td>
                ))}
                <td className="muted small">{formatDateTime(r.modifiedAt)}</td>
              </tr>
            ))
          : families.slice(0, SHOWN).map((f) => (
              <tr key={f.familyId}>
                <td>
                  {titleOf(f.familyId)}
                  <span className="muted small">
                    {' '}
                    · {f.sessions.length} session{f.sessions.length === 1 ? '' : 's'}
                    {isStale(f, staleDays, now) ? ' · stale' : ''}
                  </span>
                </td>
                <td className="num">{formatBytes(f.total)}</td>
                {PARTS.map((p) => (
                  <td key={p.key} className="num muted">
                    {f.parts[p.key] ? formatBytes(f.parts[p.key]) : ''}
                  </td>
                ))}
                <td className="muted small">{formatDateTime(f.lastWrite)}</td>
              </tr>
            ))}
      </tbody>
    </table>
  );
}
