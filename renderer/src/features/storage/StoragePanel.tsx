/**
 * The Storage view: every session's bytes split into images, tool output, abandoned branches,
 * entries copied from a fork parent and the rest (main's store report); the largest sessions and
 * fork families; a slim copy of a chosen session with its preview (SlimAction).
 */
import { useCallback, useMemo, useState } from 'react';
import { useCanopy } from '../../app-context';
import { CONTRIBUTED } from '../../commands/registry';
import { useContributedActions } from '../../commands/commands-context';
import { formatBytes, formatDateTime } from '../../lib/format';
import type { StorageRowDto } from '../../lib/shared';
import { useStoreReport } from '../../lib/store-report';
import { useEscape } from '../../lib/use-escape';
import { EChart, type ChartColors } from '../../ui/EChart';
import { ArchiveAction } from './ArchiveAction';
import { SlimAction } from './SlimAction';
import { stackedOption } from './storage-charts';
import { familiesOf, isStale, PARTS, totalsOf } from './storage-model';
import '../../ui/store-dialog.css';
import './storage.css';

const STALE_DAYS = 30;
const SHOWN = 100;

export function StoragePanel() {
  const [open, setOpen] = useState(false);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.showStorage, run: () => setOpen(true) }], []);
  useContributedActions(contributed);
  if (!open) return null;
  return <StorageDialog onClose={() => setOpen(false)} />;
}

function StorageDialog({ onClose }: { onClose: () => void }) {
  useEscape(onClose);
  const { report, error, refresh } = useStoreReport(true);
  const list = useCanopy((s) => s.sessionList);
  const summaries = useCanopy((s) => s.summaries);
  const [chosen, setChosen] = useState<string | null>(null);
  const [view, setView] = useState<'sessions' | 'families'>('sessions');
  const rows = useMemo(() => report?.storage ?? [], [report]);
  const totals = useMemo(() => totalsOf(rows), [rows]);
  const families = useMemo(() => familiesOf(rows), [rows]);
  const now = Date.now();
  const stale = families.filter((f) => isStale(f, STALE_DAYS, now));
  const titleOf = useCallback(
    (id: string): string => {
      const s = summaries[id];
      const row = list?.sessions.find((r) => r.sessionId === id);
      return s?.name ?? s?.firstMessage ?? row?.fileName ?? id;
    },
    [summaries, list],
  );
  const chart = useCallback(
    (c: ChartColors) => stackedOption(rows, (r: StorageRowDto) => titleOf(r.sessionId), c),
    [rows, titleOf],
  );
  const running = report?.state === 'running';
  const pct = report && report.total > 0 ? Math.round((100 * report.done) / report.total) : 0;

  return (
    <div className="store-overlay" role="dialog" aria-label="Storage" data-testid="storage-panel" onClick={onClose}>
      <div className="store-box" onClick={(e) => e.stopPropagation()}>
        <header className="store-head">
          <h2>Storage</h2>
          <span className="muted small" data-testid="storage-summary">
            {rows.length > 0
              ? `${formatBytes(totals.total)} in ${rows.length} sessions, ${families.length} fork families · ` +
                PARTS.map((p) => `${p.label} ${formatBytes(totals[p.key])}`).join(', ')
              : 'reading every session…'}
          </span>
          <span className="grow" />
          {running && (
            <span className="muted small" role="status">
              reading {pct}%
            </span>
          )}
          <button type="button" onClick={refresh} disabled={running}>
            Refresh
          </button>
          <button type="button" autoFocus onClick={onClose} aria-label="Close storage">
            Close
          </button>
        </header>
        {error && (
          <div className="search-error" role="alert">
            {error}
          </div>
        )}
        <div className="store-body">
          <section>
            <h3>Largest sessions</h3>
            <EChart
              option={chart}
              height={Math.max(120, Math.min(12, rows.length) * 24 + 40)}
              label="The largest sessions, split into their parts"
              testId="storage-chart"
              onClick={(p) => p.name && setChosen(p.name)}
            />
          </section>
          {chosen && <SlimAction key={chosen} sessionId={chosen} title={titleOf(chosen)} onDone={refresh} />}
          <section>
            <h3>
              {(['sessions', 'families'] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  className={`chip-button ${view === k ? 'active' : ''}`}
                  aria-pressed={view === k}
                  onClick={() => setView(k)}
                >
                  {k === 'sessions'
                    ? 'Sessions by bytes'
                    : `Fork families by bytes (${stale.length} stale for ${STALE_DAYS} days)`}
                </button>
              ))}
            </h3>
            {view === 'families' && <ArchiveAction staleDays={STALE_DAYS} titleOf={titleOf} onDone={refresh} />}
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
                            onClick={() => setChosen(r.sessionId)}
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
                            {isStale(f, STALE_DAYS, now) ? ' · stale' : ''}
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
          </section>
        </div>
      </div>
    </div>
  );
}
