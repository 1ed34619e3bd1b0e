import { useMemo, useRef, useState } from 'react';
import { useActions, useServices } from '../../app-context';
import { useContributedActions } from '../../commands/commands-context';
import type { CommandAction } from '../../commands/registry';
import type { OverviewMarks, OverviewTip } from './model/overview';
import { stepTip } from './model/tips';
import type { GraphView } from './model/view';
import type { LodView } from './model/lod-view';

/**
 * Jumps to branch tips: `]` / `[` walk them in tree order, "Go to branch tip…" opens the picker.
 * Jumping selects the tip's entry and centres it.
 */
export function useTipJumps(view: GraphView, lodView: LodView, marks: OverviewMarks) {
  const actions = useActions();
  const [pickerOpen, setPickerOpen] = useState(false);
  // The registered actions stay the same objects; they read the current drawing from here.
  const latest = useRef({ view, lodView, marks });
  latest.current = { view, lodView, marks };
  const { store } = useServices();

  const jump = useMemo(
    () => (tip: OverviewTip) => {
      setPickerOpen(false);
      actions.selectEntry(tip.entryId, { focus: true });
    },
    [actions],
  );

  const contributed = useMemo<CommandAction[]>(() => {
    const step = (delta: 1 | -1) => {
      const { view: v, marks: m, lodView: lv } = latest.current;
      const s = store.getState();
      // The cursor (a drawn node: its first draw node) or else the selection, as a tree-order position.
      const cursor = s.cursorId ? lv.lod.nodes.get(s.cursorId)?.draws[0] : undefined;
      const from = cursor ?? v.drawNodeOf(s.selectedEntryId ?? '')?.id;
      const posOf = (id: string) => v.drawTree.nodes.get(id)?.orderPos ?? -1;
      const tip = stepTip(m.tips, posOf, from === undefined ? null : posOf(from), delta);
      if (tip) jump(tip);
    };
    const hasTips = () => latest.current.marks.tips.length > 0;
    return [
      {
        id: 'graph.nextTip',
        title: 'Next branch tip',
        group: 'Navigate',
        shortcut: [']'],
        keywords: 'branch leaf end jump',
        enabled: hasTips,
        run: () => step(1),
      },
      {
        id: 'graph.previousTip',
        title: 'Previous branch tip',
        group: 'Navigate',
        shortcut: ['['],
        keywords: 'branch leaf end jump',
        enabled: hasTips,
        run: () => step(-1),
      },
      {
        id: 'graph.goToTip',
        title: 'Go to branch tip…',
        group: 'Navigate',
        keywords: 'branch leaf end jump list',
        enabled: hasTips,
        run: () => setPickerOpen(true),
      },
    ];
  }, [jump, store]);
  useContributedActions(contributed);

  return { jump, pickerOpen, setPickerOpen };
}
