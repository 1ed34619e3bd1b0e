import type { NodeTypes } from '@xyflow/react';
import type { NodeComponentKind } from '../../../model/kinds';
import { ChainNode } from './ChainNode';
import { ClusterNode } from './ClusterNode';
import {
  AssistantNode,
  BashNode,
  BranchSummaryNode,
  CompactionNode,
  CustomMessageNode,
  CustomNode,
  LabelNode,
  LeafRecordNode,
  SessionInfoNode,
  SettingNode,
  ToolResultNode,
  UnknownNode,
  UserNode,
} from './EntryNodes';

/** One memoised component per node kind; defined once at module level so react-flow never remounts. */
export const nodeTypes = {
  user: UserNode,
  assistant: AssistantNode,
  toolResult: ToolResultNode,
  bashExecution: BashNode,
  customMessage: CustomMessageNode,
  compaction: CompactionNode,
  branchSummary: BranchSummaryNode,
  label: LabelNode,
  setting: SettingNode,
  custom: CustomNode,
  sessionInfo: SessionInfoNode,
  leaf: LeafRecordNode,
  unknown: UnknownNode,
  chain: ChainNode,
  cluster: ClusterNode,
} satisfies Record<NodeComponentKind | 'cluster', unknown> as unknown as NodeTypes;
