/** A progress bar with its caption: determinate once main reports how far it got, else indeterminate. */
export interface ProgressLineProps {
  label: string;
  /** Done and total so far (absent: no report yet). */
  progress?: { done: number; total: number } | null;
  /** Formats the done / total numbers (e.g. bytes). */
  format?: (n: number) => string;
  onCancel?: () => void;
  testId?: string;
  /** Less padding (a background task under something else). */
  subtle?: boolean;
}

export function ProgressLine({ label, progress, format = String, onCancel, testId, subtle }: ProgressLineProps) {
  const fraction = progress && progress.total > 0 ? Math.min(1, progress.done / progress.total) : null;
  return (
    <div className={subtle ? 'progress subtle' : 'progress'} role="status" data-testid={testId}>
      {fraction === null ? (
        <div className="progress-bar indeterminate" />
      ) : (
        <div
          className="progress-bar"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(fraction * 100)}
          style={{ width: `${(fraction * 100).toFixed(1)}%` }}
        />
      )}
      <span className="progress-caption">
        {label}
        {progress && progress.total > 0 && (
          <span className="muted">
            {' '}
            {format(progress.done)} of {format(progress.total)}
          </span>
        )}
        {onCancel && (
          <button
            type="button"
            className="link-button"
            onClick={onCancel}
            data-testid={testId ? `${testId}-cancel` : undefined}
          >
            Cancel
          </button>
        )}
      </span>
    </div>
  );
}
