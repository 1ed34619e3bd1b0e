/** The Usage view's table: spend by day, model or project; a row's key lists its sessions. */
import { formatCost, formatTokens, type UsageSum } from './usage-model';

export type TableBy = 'day' | 'model' | 'project';

export function UsageTable({
  sums,
  kind,
  onPick,
}: {
  sums: UsageSum[];
  kind: TableBy;
  onPick: (value: string) => void;
}) {
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
