/** The list's "show only" choice: every session, the pinned ones, or those with a tag (Canopy's records). */
import { useMemo } from 'react';
import { useCanopy } from '../../app-context';
import { tagsInUse } from '../../lib/shared';

export function OnlyChoice() {
  const keep = useCanopy((s) => s.keep);
  const only = useCanopy((s) => s.sessionOnly);
  const setOnly = useCanopy((s) => s.setSessionOnly);
  const tags = useMemo(() => tagsInUse(keep), [keep]);
  const pinned = useMemo(() => Object.values(keep).filter((r) => r.pinned).length, [keep]);
  if (tags.length === 0 && pinned === 0 && !only) return null;
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
    </select>
  );
}
