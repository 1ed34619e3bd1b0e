import { Command } from 'cmdk';
import { useEffect, useMemo } from 'react';
import { useActions, useCanopy } from '../../app-context';
import type { TreeIndex } from '../../model/tree-index';
import type { OverviewTip } from './model/overview';
import { tipPreview } from './model/tips';
import { branchLabel, branchText } from '../../model/branch-label';

/** Ids whose previews a tip's line may come from (the tip and a few ancestors), for a pending graph. */
function previewIds(index: TreeIndex, tips: readonly OverviewTip[], up = 3): string[] {
  const out: string[] = [];
  for (const t of tips) {
    let cur = index.indexOf.get(t.entryId) ?? -1;
    for (let k = 0; cur !== -1 && k <= up; k++, cur = index.parent[cur]!) out.push(index.ids[cur]!);
  }
  return out;
}

/** "Go to branch tip…": every tip in tree order with its last message, filtered as you type. */
export function TipPicker({
  tips,
  index,
  onPick,
  onClose,
}: {
  tips: readonly OverviewTip[];
  index: TreeIndex;
  onPick(tip: OverviewTip): void;
  onClose(): void;
}) {
  const pending = useCanopy((s) => s.graph?.pending === true);
  const lazy = useCanopy((s) => s.lazyPreviews);
  const leafId = useCanopy((s) => s.graph?.leafId ?? null);
  const actions = useActions();
  useEffect(() => {
    if (pending) actions.requestPreviews(previewIds(index, tips));
  }, [pending, actions, index, tips]);
  const rows = useMemo(
    () =>
      tips.map((t, i) => ({
        tip: t,
        n: i + 1,
        text: tipPreview(index, t.entryId, lazy),
        branch: t.onPath ? '' : branchText(branchLabel(index, t.entryId, lazy)),
      })),
    [tips, index, lazy],
  );

  return (
    <div className="overlay-backdrop" onMouseDown={onClose} data-testid="tip-picker">
      <Command
        className="palette"
        label="Go to branch tip"
        loop
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      >
        <Command.Input
          autoFocus
          placeholder={`Go to one of ${tips.length} branch tips…`}
          data-testid="tip-picker-input"
        />
        <Command.List className="palette-list">
          <Command.Empty className="muted pad">No tip matches.</Command.Empty>
          {rows.map(({ tip, n, text, branch }) => (
            <Command.Item
              key={tip.entryId}
              value={`${n} ${text} ${branch} ${tip.entryId}`}
              className="palette-item"
              data-testid="tip-item"
              data-id={tip.entryId}
              onSelect={() => onPick(tip)}
            >
              <span className="palette-title">{text || '(no message text yet)'}</span>
              <span className="palette-detail muted small">
                tip {n}
                {tip.entryId === leafId ? ' · leaf' : tip.onPath ? ' · on the path' : ''}
                {branch ? ` · ${branch}` : ''} · {tip.entryId}
              </span>
            </Command.Item>
          ))}
        </Command.List>
      </Command>
    </div>
  );
}
