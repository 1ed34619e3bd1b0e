import { useEffect, useState } from 'react';
import { useServices } from '../../app-context';
import { formatCount } from '../../lib/format';
import type { SearchStatusDto } from '../../lib/shared';
import { ProgressLine } from '../../ui/ProgressLine';

/** A line under the session list while main builds the search index (its search.progress events). */
export function SearchIndexProgress() {
  const { api } = useServices();
  const [status, setStatus] = useState<SearchStatusDto | null>(null);
  useEffect(() => {
    let live = true;
    // A pass may have begun before this mounted: ask once, then follow the events.
    void api['search.status']({}).then((r) => {
      if (live && r.ok) setStatus((now) => now ?? r.data);
    });
    const off = api.on('search.progress', setStatus);
    return () => {
      live = false;
      off();
    };
  }, [api]);
  if (!status?.indexing) return null;
  return (
    <ProgressLine
      label="Indexing for search…"
      progress={status}
      format={formatCount}
      testId="search-index-progress"
      subtle
    />
  );
}
