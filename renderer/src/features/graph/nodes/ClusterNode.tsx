import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { countOf } from '../../../lib/format';
import type { ClusterFlowNode } from '../model/flow';
import { sideHidden } from './handle-styles';

/** Side branches too many to draw at this zoom: one node that counts them. Click (Enter) opens them. */
export const ClusterNode = memo(function ClusterNode({ data }: NodeProps<ClusterFlowNode>) {
  const cls = [
    'node',
    'kind-cluster',
    data.isCursor ? 'cursor' : '',
    data.matches > 0 ? 'match' : '',
    data.highlighted > 0 ? 'highlighted' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const facts = [
    countOf(data.tips, 'tip'),
    countOf(data.entries, 'entry', 'entries'),
    data.compactions > 0 ? countOf(data.compactions, 'compaction') : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className={cls} title={`${facts}\nFirst prompt: ${data.firstPrompt || '(none)'}\nClick to open`}>
      <Handle type="target" position={Position.Left} id="tl" isConnectable={false} style={sideHidden} />
      <div className="node-head">
        <span className="node-icon" aria-hidden>
          ⋔
        </span>
        <span className="node-title">
          {data.branches === 1 ? 'side branch' : `${data.branches} side branches`} · {countOf(data.tips, 'tip')}
        </span>
        {data.matches > 0 && <span className="chip match-chip">{countOf(data.matches, 'hit')}</span>}
      </div>
      <div className="node-body">
        <span className="node-preview">{data.firstPrompt ? `❯ ${data.firstPrompt}` : facts}</span>
      </div>
    </div>
  );
});
