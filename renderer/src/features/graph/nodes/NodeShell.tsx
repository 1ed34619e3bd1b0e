import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import { STATE_LABELS } from '../../../model/context-order';
import type { EntryNodeData } from '../model/flow';
import { hidden, sideHidden } from './handle-styles';
import { useNodeSlots } from '../node-slots';
import { NodePreview } from './NodePreview';

/** The node's tooltip: what it is, and why it is (not) part of the context. */
function tooltip(data: EntryNodeData): string {
  const e = data.entry;
  let text = `${e.type}${e.role ? `/${e.role}` : ''} ${e.id} · line ${e.line}`;
  const c = data.context;
  if (c) {
    text += `\n${STATE_LABELS[c.state]}: ${c.reason}`;
    if (c.by) text += ` (${c.by})`;
  }
  if (data.isWhatIfLeaf) text += '\nWhat-if leaf: the context view shows what pi would send from here';
  return text;
}

/** Short marks for the states that need one at a glance (in context needs none). */
const STATE_MARKS: Partial<Record<string, string>> = {
  // The hatching says it too; the chip stays short so the title keeps its room.
  summarised: '∑',
  edited: 'edited',
  excluded: 'excluded',
  'not-projected': 'not sent',
};

/** Frame shared by every entry node: handles, state classes, title row, preview row. */
export function NodeShell({
  data,
  kindClass,
  icon,
  title,
  chips,
  children,
  keptSource = false,
}: {
  data: EntryNodeData;
  kindClass: string;
  icon: string;
  title: string;
  chips?: ReactNode;
  children?: ReactNode;
  keptSource?: boolean;
}) {
  const state = data.context?.state;
  const cls = [
    'node',
    kindClass,
    data.onPath ? 'on-path' : '',
    data.beyondCheckpoint ? 'beyond-checkpoint' : '',
    data.isSelected ? 'selected' : '',
    data.isCursor ? 'cursor' : '',
    data.isMatch ? 'match' : '',
    data.isLeaf ? 'leaf-node' : '',
    data.entry.isError ? 'error' : '',
    state ? `ctx-${state}` : '',
    data.isWhatIfLeaf ? 'what-if-leaf' : '',
    data.isHighlighted ? 'highlighted' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const mark = state ? STATE_MARKS[state] : undefined;
  const { Flags, SelectedActions } = useNodeSlots();
  return (
    <>
      <div className={cls} title={tooltip(data)}>
        <Handle type="target" position={Position.Top} id="t" isConnectable={false} style={hidden} />
        <Handle type="target" position={Position.Right} id="kt" isConnectable={false} style={hidden} />
        <Handle type="target" position={Position.Left} id="tl" isConnectable={false} style={sideHidden} />
        <div className="node-head">
          <span className="node-icon" aria-hidden>
            {icon}
          </span>
          <span className="node-title">{title}</span>
          {data.spliced && (
            <span className="chip dim" title="Entries between this one and its parent are hidden by the filter">
              ⋯
            </span>
          )}
          {data.label !== null && (
            <span className="chip label-badge" data-testid="label-badge" title={`Label: ${data.label}`}>
              # {data.label}
            </span>
          )}
          {chips}
          {mark && <span className={`chip ctx-chip ctx-chip-${state}`}>{mark}</span>}
          {data.isLeaf && (
            <span className="chip leaf-chip" title="Current leaf">
              leaf
            </span>
          )}
          {data.isWhatIfLeaf && (
            <span className="chip what-if-chip" title="The context view shows this entry as the leaf">
              what if
            </span>
          )}
        </div>
        <div className="node-body">{children ?? <NodePreview entry={data.entry} />}</div>
        <Handle type="source" position={Position.Bottom} id="s" isConnectable={false} style={hidden} />
        <Handle type="source" position={Position.Right} id="sr" isConnectable={false} style={sideHidden} />
        {keptSource && <Handle type="source" position={Position.Right} id="ks" isConnectable={false} style={hidden} />}
      </div>
      {Flags && (data.forks.length > 0 || data.parentFork) && (
        <Flags entryId={data.entry.id} forks={data.forks} parent={data.parentFork} />
      )}
      {SelectedActions && data.isSelected && !data.isWhatIfLeaf && (
        <div className="node-actions">
          <SelectedActions entryId={data.entry.id} />
        </div>
      )}
    </>
  );
}
