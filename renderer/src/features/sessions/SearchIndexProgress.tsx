import { useEffect } from 'react';
import { useActions, useCanopy } from '../../app-context';
import { formatCount } from '../../lib/format';
import { ProgressLine } from '../../ui/ProgressLine';

/** A line under the session list while main builds the search index (the search slice follows its progress). */
export function SearchIndexProgress() {
  const actions = useActions();
  const status = useCanopy((s) => s.searchStatus);
  useEffect(() => actions.followSearchStatus(), [actions]);
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
