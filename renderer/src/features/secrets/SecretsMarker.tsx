/** A session row's mark: how many possible secrets the radar found in it (nothing when none). */
import { useCanopy } from '../../app-context';
import { KeyIcon } from './KeyIcon';

export function SecretsMarker({ sessionId }: { sessionId: string }) {
  const n = useCanopy((s) => s.secretCounts[sessionId] ?? 0);
  if (n === 0) return null;
  return (
    <span
      className="secrets-marker"
      data-testid="secrets-marker"
      data-count={n}
      title={`${n} possible secret${n === 1 ? '' : 's'} (keys, tokens, passwords): open the session to review them before sharing`}
    >
      <KeyIcon />
      {n}
    </span>
  );
}
