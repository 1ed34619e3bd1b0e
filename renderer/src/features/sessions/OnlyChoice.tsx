/**
 * The list's "show only" choice: every session, the pinned ones, those with a tag (Canopy's
 * records), or those mostly run on a model (once the store report has read them: "By model…").
 */
import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import { tagsInUse } from '../../lib/shared';
import { modelsInUse, type SessionSpend } from '../../model/session-spend';

export function OnlyChoice({ spend }: { spend: Readonly<Record<string, SessionSpend>> | null }) {
  const keep = useCanopy((s) => s.keep);
  const only = useCanopy((s) => s.sessionOnly);
  const setOnly = useCanopy((s) => s.setSessionOnly);
  const tags = useMemo(() => tagsInUse(keep), [keep]);
  const pinned = useMemo(() => Object.values(keep).filter((r) => r.pinned).length, [keep]);
  const models = useMemo(() => (spend ? modelsInUse(spend) : []), [spend]);
  return (
    <select
      className="compact"
      aria-label="Show only"
      data-testid="session-only"
      value={only}
      onChange={(e) => setOnly(e.target.value)}
    >
      <option value="">All</option>
      <option value="pinned">Pinned ({pinned})</option>
      {tags.map(([t, n]) => (
        <option key={t} value={`tag:${t}`}>
          #{t} ({n})
        </option>
      ))}
      {models.length === 0 ? (
        <option value="models">By model…</option>
      ) : (
        models.map(([m, n]) => (
          <option key={m} value={`model:${m}`}>
            {m} ({n})
          </option>
        ))
      )}
    </select>
  );
}
