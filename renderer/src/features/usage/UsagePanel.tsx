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
import { useStoreReport } from '../../lib/store-report';
import { useEscape } from '../../lib/use-escape';
import { EChart, type ChartColors } from '../../ui/EChart';
import { barsOption, heatmapOption } from './usage-charts';
import { applyFilter, formatCost, formatTokens, sumBy, totalOf, type UsageFilter, type UsageSum } from './usage-model';
import '../../ui/store-dialog.css';

type TableBy = 'day' | 'model' | 'project';

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
  const { report, error, refresh } = useStoreReport(true);
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
            <section className="store-chosen" data-testid="usage-sessions">
              <h3>
                Sessions of {filter.kind} {filter.value}{' '}
                <button type="button" className="link-button" onClick={() => setFilter(null)}>
                  clear
                </button>
              </h3>
              <ul>
                {chosen.map((s) => (
                  <li key={s.key}>
                    <button
                      type="button"
                      className="store-row-button"
                      onClick={() => {
                        onClose();
                        void actions.openSession(s.key);
                      }}
                    >
                      <span className="store-cost">{formatCost(s.cost)}</span> {titleOf(s.key)}
                      <span className="muted small"> · {s.messages} messages</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
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

function UsageTable({ sums, kind, onPick }: { sums: UsageSum[]; kind: TableBy; onPick: (value: string) => void }) {
  return (
    <table className="store-table" data-testid="usage-table">
      <thead>
        <tr>
          <th>{kind}</th>
          <th>cost</th>
          <th title="billed by the provider (cost.totalFromProvider); the rest of the cost is estimated from model prices">
            billed
          </th>
          <th title="on the current path of their session / carried on by another session of the family / on no current path">
            active · other · abandoned
          </th>
          <th>messages</th>
          <th>input</th>
          <th>output</th>
          <th>cache read</th>
          <th>cache write</th>
          <th title="what a per-file sum would have added: copies of these messages made by /fork and /clone">
            duplicates
          </th>
        </tr>
      </thead>
      <tbody>
        {sums.map((s) => (
          <tr key={s.key}>
            <td>
              <button type="button" className="link-button" onClick={() => onPick(s.key)}>
                {s.key || '(none)'}
              </button>
            </td>
            <td className="num">
              {formatCost(s.cost)}
              {s.unpricedMessages > 0 ? '*' : ''}
            </td>
            <td className="num muted">{s.billedCost > 0 ? formatCost(s.billedCost) : ''}</td>
            <td className="num muted">
              {formatCost(s.activeCost)} · {formatCost(s.otherSessionsCost)} · {formatCost(s.abandonedCost)}
            </td>
            <td className="num">{s.messages}</td>
            <td className="num">{formatTokens(s.input)}</td>
            <td className="num">{formatTokens(s.output)}</td>
            <td className="num">{formatTokens(s.cacheRead)}</td>
            <td className="num">{formatTokens(s.cacheWrite)}</td>
            <td className="num muted">{s.duplicateCost > 0 ? `+${formatCost(s.duplicateCost)}` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
