import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import type { EntryNodeData } from '../model/flow';

const hidden = { opacity: 0, pointerEvents: 'none' as const };

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
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cls} title={`${data.entry.type}${data.entry.role ? `/${data.entry.role}` : ''} ${data.entry.id} · line ${data.entry.line}`}>
      <Handle type="target" position={Position.Top} id="t" isConnectable={false} style={hidden} />
      <Handle type="target" position={Position.Right} id="kt" isConnectable={false} style={hidden} />
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
        {data.isLeaf && (
          <span className="chip leaf-chip" title="Current leaf">
            leaf
          </span>
        )}
      </div>
      <div className="node-body">{children ?? <span className="node-preview">{data.entry.preview || '\u00a0'}</span>}</div>
      <Handle type="source" position={Position.Bottom} id="s" isConnectable={false} style={hidden} />
      {keptSource && <Handle type="source" position={Position.Right} id="ks" isConnectable={false} style={hidden} />}
    </div>
  );
}
