/**
 * The Usage view: spend of every session, each fork-copied message counted once (main's store
 * report). A calendar of spend by day, bars by model and project, a table, and the duplicate spend a
 * per-file sum would have shown. Clicking a day, model or project (or Enter on its row) lists its
 * sessions; a session opens on click.
 */
import { useCallback, useMemo, useState } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { CONTRIBUTED } from '../../commands/registry';
import { useContributedActions } from '../../commands/commands-context';
import { useStoreReport } from '../../lib/use-store-report';
import { useEscape } from '../../lib/use-escape';
import { EChart, type ChartColors } from '../../ui/EChart';
import { barsOption, heatmapOption } from './usage-charts';
import { applyFilter, formatCost, sumBy, totalOf, type UsageFilter } from './usage-model';
import { UsageSessions } from './UsageSessions';
import { UsageTable, type TableBy } from './UsageTable';
import '../../ui/store-dialog.css';

/** A bar's label back to its key (an empty key is drawn as '(none)'). */
const keyOf = (label: string): string => (label === '(none)' ? '' : label);

export function UsagePanel() {
  const [open, setOpen] = useState(false);
  const contributed = useMemo(() => [{ ...CONTRIBUTED.showUsage, run: () => setOpen(true) }], []);
  useContributedActions(contributed);
  if (!open) return null;
  return <UsageDialog onClose={() => setOpen(false)} />;
}

function UsageDialog({ onClose }: { onClose: () => void }) {
  useEscape(onClose);
  const { report, error, refresh } = useStoreReport();
  const actions = useActions();
  const list = useCanopy((s) => s.sessionList);
  const summaries = useCanopy((s) => s.summaries);
  const [filter, setFilter] = useState<UsageFilter | null>(null);
  const [tableBy, setTableBy] = useState<TableBy>('day');
  const rows = useMemo(() => report?.usage ?? [], [report]);
  const total = useMemo(() => totalOf(rows), [rows]);
  const days = useMemo(() => sumBy(rows, 'day'), [rows]);
  const models = useMemo(() => sumBy(rows, 'model'), [rows]);
  const projects = useMemo(() => sumBy(rows, 'project'), [rows]);
  const table = tableBy === 'day' ? [...days].reverse() : tableBy === 'model' ? models : projects;
  const chosen = useMemo(() => sumBy(applyFilter(rows, filter), 'sessionId'), [rows, filter]);
  const heat = useCallback((c: ChartColors) => heatmapOption(days, c), [days]);
  const modelBars = useCallback((c: ChartColors) => barsOption(models, c), [models]);
  const projectBars = useCallback((c: ChartColors) => barsOption(projects, c), [projects]);
  const titleOf = (id: string): string => {
    const s = summaries[id];
    const row = list?.sessions.find((r) => r.sessionId === id);
    return s?.name ?? s?.firstMessage ?? row?.fileName ?? id;
  };
  const running = report?.state === 'running';
  const pct = report && report.total > 0 ? Math.round((100 * report.done) / report.total) : 0;

  return (
    <div className="store-overlay" role="dialog" aria-label="Usage" data-testid="usage-panel" onClick={onClose}>
      <div className="store-box" onClick={(e) => e.stopPropagation()}>
        <header className="store-head">
          <h2>Usage</h2>
          <span className="muted small" data-testid="usage-summary">
            {report?.state === 'done' || rows.length > 0
              ? `${formatCost(total.cost)} over ${total.messages} usage records (${formatCost(total.billedCost)} billed by providers, the rest estimated) · a per-file sum would show ${formatCost(total.cost + total.duplicateCost)} (${formatCost(total.duplicateCost)} of fork copies counted again)`
              : 'reading every session…'}
          </span>
          <span className="grow" />
          {running && (
            <span className="muted small" role="status" data-testid="usage-progress">
              reading {pct}%
            </span>
          )}
          <button type="button" onClick={refresh} disabled={running}>
            Refresh
          </button>
          <button type="button" autoFocus onClick={onClose} aria-label="Close usage">
            Close
          </button>
        </header>
        {error && (
          <div className="search-error" role="alert">
            {error}
          </div>
        )}
        {report?.unpricedModels.length ? (
          <div className="muted small store-note">
            * {total.unpricedMessages} messages of models without prices ({report.unpricedModels.join(', ')}): counted
            in tokens, their cost is unknown (not $0).
          </div>
        ) : null}
        {report?.usageProblems.length ? (
          <div className="muted small store-note" data-testid="usage-problems">
            {report.usageProblems.length} usage records not counted or without a date (values pi&apos;s types do not
            allow), e.g. entry {report.usageProblems[0]!.entryId}
            {report.usageProblems[0]!.line !== null ? ` at line ${report.usageProblems[0]!.line}` : ''}:{' '}
            {report.usageProblems[0]!.message}
          </div>
        ) : null}
        <div className="store-body">
          <section>
            <h3>Spend by day (UTC)</h3>
            <EChart
              option={heat}
              height={150}
              label="Calendar of spend by day"
              testId="usage-calendar"
              onClick={(p) => Array.isArray(p.data) && setFilter({ kind: 'day', value: String(p.data[0]) })}
            />
          </section>
          <div className="store-two">
            <section>
              <h3>By model</h3>
              <EChart
                option={modelBars}
                height={Math.max(80, Math.min(8, models.length) * 26)}
                label="Spend by model"
                testId="usage-models"
                onClick={(p) => p.name && setFilter({ kind: 'model', value: keyOf(p.name) })}
              />
            </section>
            <section>
              <h3>By project</h3>
              <EChart
                option={projectBars}
                height={Math.max(80, Math.min(8, projects.length) * 26)}
                label="Spend by project"
                testId="usage-projects"
                onClick={(p) => p.name && setFilter({ kind: 'project', value: keyOf(p.name) })}
              />
            </section>
          </div>
          {filter && (
            <UsageSessions
              filter={filter}
              sums={chosen}
              titleOf={titleOf}
              onClear={() => setFilter(null)}
              onOpen={(id) => {
                onClose();
                void actions.openSession(id);
              }}
            />
          )}
          <section>
            <h3>
              Table by{' '}
              {(['day', 'model', 'project'] as const).map((k) => (
                <button
                  key={k}
                  type="button"
                  className={`chip-button ${tableBy === k ? 'active' : ''}`}
                  aria-pressed={tableBy === k}
                  onClick={() => setTableBy(k)}
                >
                  {k}
                </button>
              ))}
            </h3>
            <UsageTable sums={table} kind={tableBy} onPick={(value) => setFilter({ kind: tableBy, value })} />
          </section>
        </div>
      </div>
    </div>
  );
}
