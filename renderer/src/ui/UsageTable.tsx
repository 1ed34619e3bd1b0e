import { formatCost, formatCount } from '../lib/format';

type UsageFigure = 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'totalTokens' | 'costTotal';

/** One message's usage in pi's terms; a figure that is missing shows as –. */
export function UsageTable({
  usage,
  className = 'usage',
  testId,
}: {
  usage: Record<UsageFigure, number | null | undefined>;
  className?: string;
  testId?: string;
}) {
  const count = (v: number | null | undefined) => (v === null || v === undefined ? '–' : formatCount(v));
  return (
    <table className={className} data-testid={testId}>
      <thead>
        <tr>
          <th>input</th>
          <th>output</th>
          <th>cache read</th>
          <th>cache write</th>
          <th>total</th>
          <th>cost</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td>{count(usage.input)}</td>
          <td>{count(usage.output)}</td>
          <td>{count(usage.cacheRead)}</td>
          <td>{count(usage.cacheWrite)}</td>
          <td>{count(usage.totalTokens)}</td>
          <td>{usage.costTotal === null || usage.costTotal === undefined ? '–' : formatCost(usage.costTotal)}</td>
        </tr>
      </tbody>
    </table>
  );
}
