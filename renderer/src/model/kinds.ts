import type { EntryNodeDto } from '../lib/shared';

/**
 * What a node draws as. `data-kind` on the DOM is the entry type, or the role for messages; the
 * component kind groups those into the node components that exist.
 */
export type NodeComponentKind =
  | 'user'
  | 'assistant'
  | 'toolResult'
  | 'bashExecution'
  | 'customMessage'
  | 'compaction'
  | 'branchSummary'
  | 'label'
  | 'setting'
  | 'custom'
  | 'sessionInfo'
  | 'leaf'
  | 'unknown'
  | 'chain';

/** The `data-kind` attribute value: entry type, or message role. */
export function dataKind(entry: EntryNodeDto): string {
  if (entry.type === 'message') return entry.role ?? 'message';
  return entry.type;
}

const BY_TYPE: Record<string, NodeComponentKind> = {
  compaction: 'compaction',
  branch_summary: 'branchSummary',
  label: 'label',
  model_change: 'setting',
  thinking_level_change: 'setting',
  active_tools_change: 'setting',
  custom: 'custom',
  custom_message: 'customMessage',
  session_info: 'sessionInfo',
  leaf: 'leaf',
};

const BY_ROLE: Record<string, NodeComponentKind> = {
  user: 'user',
  assistant: 'assistant',
  toolResult: 'toolResult',
  bashExecution: 'bashExecution',
  custom: 'customMessage',
  hookMessage: 'customMessage',
  branchSummary: 'branchSummary',
  compactionSummary: 'compaction',
};

export function componentKind(entry: EntryNodeDto): NodeComponentKind {
  if (entry.type === 'message') return (entry.role && BY_ROLE[entry.role]) || 'unknown';
  return BY_TYPE[entry.type] ?? 'unknown';
}

/** Short human title for a node header. */
export function kindTitle(entry: EntryNodeDto): string {
  switch (entry.type) {
    case 'message':
      switch (entry.role) {
        case 'toolResult':
          return entry.toolNames?.[0] ? `result · ${entry.toolNames[0]}` : 'tool result';
        case 'bashExecution':
          return 'bash';
        case 'custom':
        case 'hookMessage':
          return entry.customType ? `custom · ${entry.customType}` : 'custom message';
        default:
          return entry.role ?? 'message';
      }
    case 'custom_message':
      return entry.customType ? `custom msg · ${entry.customType}` : 'custom message';
    case 'custom':
      return entry.customType ? `custom · ${entry.customType}` : 'custom';
    case 'branch_summary':
      return 'branch summary';
    case 'model_change':
      return 'model';
    case 'thinking_level_change':
      return 'thinking';
    case 'active_tools_change':
      return 'tools';
    case 'session_info':
      return 'session name';
    default:
      return entry.type || '(no type)';
  }
}

const COLOR_VARS: Record<NodeComponentKind, string> = {
  user: '--k-user',
  assistant: '--k-assistant',
  toolResult: '--k-tool',
  bashExecution: '--k-bash',
  customMessage: '--k-custom-message',
  compaction: '--k-compaction',
  branchSummary: '--k-branch-summary',
  label: '--k-label',
  setting: '--k-setting',
  custom: '--k-custom',
  sessionInfo: '--k-session-info',
  leaf: '--k-leaf',
  unknown: '--k-unknown',
  chain: '--k-chain',
};

/** The theme colour of an entry's kind, as a CSS value. */
export function kindColor(entry: EntryNodeDto): string {
  return `var(${COLOR_VARS[componentKind(entry)]})`;
}
