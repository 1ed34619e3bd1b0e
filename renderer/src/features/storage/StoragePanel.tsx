/**
 * The Storage view: every session's bytes split into images, tool output, abandoned branches,
 * entries copied from a fork parent and the rest (main's store report); the largest sessions and
 * fork families; a slim copy of a chosen session with its preview (SlimAction).
 */
import { useCallback, useMemo, useState } from 'react';
import { useCanopy } from '../../app-context';
import { CONTRIBUTED } from '../../commands/registry';
import { useContributedActions } from '../../commands/commands-context';
import { formatBytes } from '../../lib/format';
import type { StorageRowDto } from '../../lib/shared';
import { useStoreReport } from '../../lib/use-store-report';
import { useEscape } from '../../lib/use-escape';
import { EChart, type ChartColors } from '../../ui/EChart';
import { ArchiveAction } from './ArchiveAction';
import { SlimAction } from './SlimAction';
import { StorageTable } from './StorageTable';
import { stackedOption } from './storage-charts';
import { familiesOf, isStale, PARTS, totalsOf } from './storage-model';
import '../../ui/store-dialog.css';
import './storage.css';

const STALE_DAYS = 30;

export function StoragePanel() {
  const [open, setOpen] = useState(false);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.showStorage, run: () => setOpen(true) }], []);
  useContributedActions(contributed);
  if (!open) return null;
  return <StorageDialog onClose={() => setOpen(false)} />;
}

function StorageDialog({ onClose }: { onClose: () => void }) {
  useEscape(onClose);
  const { report, error, refresh } = useStoreReport();
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
          {chosen && <SlimAction key={chosen} sessionId={chosen} title={titleOf(chosen)} />}
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
            {view === 'families' && <ArchiveAction staleDays={STALE_DAYS} titleOf={titleOf} />}
            <StorageTable
              view={view}
              rows={rows}
              families={families}
              chosen={chosen}
              onChoose={setChosen}
              titleOf={titleOf}
              staleDays={STALE_DAYS}
              now={now}
            />
          </section>
        </div>
      </div>
    </div>
  );
}
