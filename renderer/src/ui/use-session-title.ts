import { useCanopy } from '../app-context';
import { sessionLabel } from '../model/session-title';

/** A listed session's one-line label (model/session-title.ts), or `fallback` while it is not listed. */
export function useSessionTitle(sessionId: string, fallback: string): string {
  const row = useCanopy((s) => s.sessionList?.sessions.find((r) => r.sessionId === sessionId) ?? null);
  const summary = useCanopy((s) => s.summaries[sessionId] ?? null);
  return row ? sessionLabel(row, summary ?? row.summary) : fallback;
}
