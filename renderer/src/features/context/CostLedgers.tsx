import { formatCost, formatCount } from '../../lib/format';
import type { ContextViewDto, CostLedgerDto } from '../../lib/shared';
import { EntryLink } from '../../ui/EntryLink';
import { UsageTable } from '../../ui/UsageTable';

/** The last assistant message's usage figures (what pi's footer shows). */
export function LastUsage({ view }: { view: ContextViewDto }) {
  const u = view.lastUsage;
  if (!u) return <div className="muted small">No assistant message with usage in this context.</div>;
  return (
    <div className="last-usage" data-testid="last-usage">
      <div className="small">
        Last assistant usage · <EntryLink id={u.entryId} />{' '}
        <span className="muted">(message {u.messageIndex + 1})</span>
      </div>
      <UsageTable usage={u} className="usage compact-table" />
    </div>
  );
}

const ROWS: Array<[string, (l: CostLedgerDto) => string]> = [
  ['cost', (l) => formatCost(l.costTotal)],
  ['input', (l) => formatCount(l.input)],
  ['output', (l) => formatCount(l.output)],
  ['cache read', (l) => formatCount(l.cacheRead)],
  ['cache write', (l) => formatCount(l.cacheWrite)],
  ['total tokens', (l) => formatCount(l.totalTokens)],
  ['usage records', (l) => formatCount(Object.values(l.records).reduce((a, b) => a + b, 0))],
];

/** Two ledgers side by side, never added up: the active path's spend is part of all branches'. */
export function CostLedgers({ view }: { view: ContextViewDto }) {
  const { activePath, allBranches } = view.cost;
  return (
    <table className="ledgers compact-table" data-testid="cost-ledgers">
      <caption className="muted small">
        Spend recorded in the file. The active path is a part of all branches: the two are not added.
      </caption>
      <thead>
        <tr>
          <th />
          <th data-testid="ledger-active">active path</th>
          <th data-testid="ledger-all">all branches</th>
        </tr>
      </thead>
      <tbody>
        {ROWS.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{value(activePath)}</td>
            <td>{value(allBranches)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
