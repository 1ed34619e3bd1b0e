import { memo } from 'react';

const MAX_LINES = 4000;

/** pi's edit diff (`details.diff`): lines start with '+', '-' or ' ', then a line number. */
export const Diff = memo(function Diff({ text }: { text: string }) {
  const lines = text.split('\n');
  return (
    <pre className="diff" data-testid="diff">
      {lines.slice(0, MAX_LINES).map((line, i) => {
        const cls = line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.trim() === '...'
              ? 'skip'
              : 'ctx';
        return (
          <div key={i} className={`diff-line ${cls}`}>
            {line || ' '}
          </div>
        );
      })}
      {lines.length > MAX_LINES && <div className="diff-line skip">… {lines.length - MAX_LINES} more lines</div>}
    </pre>
  );
});
