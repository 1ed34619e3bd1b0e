import { createContext, useContext, type ComponentType } from 'react';
import type { LineageLinkDto } from '../../lib/shared';

/**
 * What other features draw on a node, passed in by the shell: react-flow renders the nodes
 * from a module-level nodeTypes, so they reach the node through context rather than props.
 */
export interface NodeSlots {
  /** Drawn when the entry has forks or is where this session was forked from. */
  Flags?: ComponentType<{ entryId: string; forks: LineageLinkDto[]; parent: LineageLinkDto | null }>;
  /** Drawn under the selected node (unless it is already the what-if leaf). */
  SelectedActions?: ComponentType<{ entryId: string }>;
}

const NO_SLOTS: NodeSlots = {};
export const NodeSlotsContext = createContext<NodeSlots>(NO_SLOTS);

export function useNodeSlots(): NodeSlots {
  return useContext(NodeSlotsContext);
}
