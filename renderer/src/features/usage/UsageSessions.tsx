/** The sessions of a chosen day, model or project, by spend; one opens on click. */
import { formatCost, type UsageFilter, type UsageSum } from './usage-model';

export function UsageSessions({
  filter,
  sums,
  titleOf,
  onClear,
  onOpen,
}: {
  filter: UsageFilter;
  sums: UsageSum[];
  titleOf: (sessionId: string) => string;
  onClear: () => void;
  onOpen: (sessionId: string) => void;
}) {
  return (
    <section className="store-chosen" data-testid="usage-sessions">
      <h3>
        Sessions of {filter.kind} {filter.value}{' '}
        <button type="button" className="link-button" onClick={onClear}>
          clear
        </button>
      </h3>
      <ul>
        {sums.map((s) => (
          <li key={s.key}>
            <button type="button" className="store-row-button" onClick={() => onOpen(s.key)}>
              <span className="store-cost">{formatCost(s.cost)}</span> {titleOf(s.key)}
              <span className="muted small"> · {s.messages} messages</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
