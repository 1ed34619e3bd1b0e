import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { EntryFlowNode } from '../model/flow';
import { kindTitle } from '../../../model/kinds';
import { NodeShell } from './NodeShell';

type Props = NodeProps<EntryFlowNode>;

export const UserNode = memo(function UserNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-user" icon="❯" title="user" />;
});

export const AssistantNode = memo(function AssistantNode({ data }: Props) {
  const e = data.entry;
  const tools = e.toolNames ?? [];
  const chips = (
    <>
      {tools.length > 0 && (
        <span className="chip tool-chip" title={`Tool calls: ${tools.join(', ')}`}>
          ⚙ {tools.length === 1 ? tools[0] : `${tools.length} tools`}
        </span>
      )}
      {e.stopReason && e.stopReason !== 'stop' && e.stopReason !== 'toolUse' && (
        <span className="chip warn-chip">{e.stopReason}</span>
      )}
    </>
  );
  return (
    <NodeShell
      data={data}
      kindClass="kind-assistant"
      icon="✦"
      title={e.model ? `assistant · ${e.model}` : 'assistant'}
      chips={chips}
    />
  );
});

export const ToolResultNode = memo(function ToolResultNode({ data }: Props) {
  const chips = data.entry.isError ? <span className="chip error-chip">error</span> : null;
  return <NodeShell data={data} kindClass="kind-tool" icon="↳" title={kindTitle(data.entry)} chips={chips} />;
});

export const BashNode = memo(function BashNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-bash" icon="$" title="bash" />;
});

export const CustomMessageNode = memo(function CustomMessageNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-custom-message" icon="✉" title={kindTitle(data.entry)} />;
});

export const CompactionNode = memo(function CompactionNode({ data }: Props) {
  const e = data.entry;
  const retained = e.checkpoint === 'retained-tail';
  const chips = retained ? (
    <span
      className="chip checkpoint-chip retained"
      title="Self-contained checkpoint (retainedTail): nothing older is read"
    >
      self-contained
    </span>
  ) : e.checkpoint === 'first-kept' ? (
    <span className="chip checkpoint-chip first-kept" title={`Keeps older entries from ${e.firstKeptEntryId ?? '?'}`}>
      ↶ keeps {e.firstKeptEntryId ?? '?'}
    </span>
  ) : null;
  return (
    <NodeShell
      data={data}
      kindClass={`kind-compaction${retained ? ' checkpoint-retained' : e.checkpoint === 'first-kept' ? ' checkpoint-first-kept' : ''}`}
      icon="▣"
      title="compaction"
      chips={chips}
      keptSource={e.checkpoint === 'first-kept'}
    />
  );
});

export const BranchSummaryNode = memo(function BranchSummaryNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-branch-summary" icon="⤴" title="branch summary" />;
});

export const LabelNode = memo(function LabelNode({ data }: Props) {
  const e = data.entry;
  return (
    <NodeShell data={data} kindClass="kind-label" icon="#" title={`label → ${e.targetId ?? '?'}`}>
      <span className="node-preview">{e.preview || '(cleared)'}</span>
    </NodeShell>
  );
});

export const SettingNode = memo(function SettingNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-setting" icon="⚑" title={kindTitle(data.entry)} />;
});

export const CustomNode = memo(function CustomNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-custom" icon="◆" title={kindTitle(data.entry)} />;
});

export const SessionInfoNode = memo(function SessionInfoNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-session-info" icon="✎" title="session name" />;
});

export const LeafRecordNode = memo(function LeafRecordNode({ data }: Props) {
  const target = data.entry.targetId;
  return (
    <NodeShell data={data} kindClass="kind-leaf-record" icon="⌖" title="leaf move">
      <span className="node-preview">
        → {target === null || target === undefined ? '(before the first entry)' : target}
      </span>
    </NodeShell>
  );
});

export const UnknownNode = memo(function UnknownNode({ data }: Props) {
  return <NodeShell data={data} kindClass="kind-unknown" icon="?" title={data.entry.type || '(no type)'} />;
});
