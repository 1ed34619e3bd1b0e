import { countOf } from '../../../lib/format';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { STATE_LABELS } from '../../../model/context-order';
import type { ChainFlowNode } from '../model/flow';
import { hidden, sideHidden } from './handle-styles';

/** A collapsed linear run. Click (or Enter) expands it. */
export const ChainNode = memo(function ChainNode({ data }: NodeProps<ChainFlowNode>) {
  const uniform = data.contextMix.length === 1 ? data.contextMix[0]![0] : null;
  const cls = [
    'node',
    'kind-chain',
    data.onPath ? 'on-path' : '',
    data.isCursor ? 'cursor' : '',
    data.matches > 0 ? 'match' : '',
    uniform ? `ctx-${uniform}` : '',
    data.highlighted > 0 ? 'highlighted' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const summary = data.kinds
    .slice(0, 3)
    .map(([k, n]) => `${n} ${k}`)
    .join(' · ');
  const mixText = data.contextMix.map(([state, n]) => `${n} ${STATE_LABELS[state]}`).join(', ');
  return (
    <div
      className={cls}
      title={`${data.count} entries from ${data.first.id} to ${data.last.id} — click to expand${mixText ? `\nContext: ${mixText}` : ''}`}
    >
      <Handle type="target" position={Position.Top} id="t" isConnectable={false} style={hidden} />
      <Handle type="target" position={Position.Right} id="kt" isConnectable={false} style={hidden} />
      <Handle type="target" position={Position.Left} id="tl" isConnectable={false} style={sideHidden} />
      <div className="node-head">
        <span className="node-icon" aria-hidden>
          ⋮
        </span>
        <span className="node-title">{data.count.toLocaleString('en-US')} entries</span>
        {data.compactions > 0 && (
          <span className="chip checkpoint-chip" title="Compactions inside">
            ▣ {data.compactions}
          </span>
        )}
        {data.matches > 0 && <span className="chip match-chip">{countOf(data.matches, 'hit')}</span>}
        <span className="chip expand-chip">expand</span>
      </div>
      <div className="node-body">
        <span className="node-preview">{summary}</span>
      </div>
      {data.contextMix.length > 1 && (
        <div className="ctx-mix" aria-hidden>
          {data.contextMix.map(([state, n]) => (
            <span key={state} className={`ctx-swatch-${state}`} style={{ flexGrow: n }} />
          ))}
        </div>
      )}
      <Handle type="source" position={Position.Bottom} id="s" isConnectable={false} style={hidden} />
      <Handle type="source" position={Position.Right} id="sr" isConnectable={false} style={sideHidden} />
    </div>
  );
});
