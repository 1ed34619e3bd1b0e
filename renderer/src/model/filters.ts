import type { EntryNodeDto } from '../lib/shared';
import type { TreeIndex } from './tree-index';

/** pi's /tree filter modes (tree-selector.js), plus a separate toggle for H3 `leaf` records. */
export type FilterMode = 'default' | 'no-tools' | 'user-only' | 'labeled-only' | 'all';
export const FILTER_MODES: readonly FilterMode[] = ['default', 'no-tools', 'user-only', 'labeled-only', 'all'];

export const FILTER_LABELS: Record<FilterMode, string> = {
  default: 'Default',
  'no-tools': 'No tools',
  'user-only': 'User only',
  'labeled-only': 'Labeled only',
  all: 'All',
};

export interface FilterOptions {
  mode: FilterMode;
  showLeafRecords: boolean;
  leafId: string | null;
  labels: Readonly<Record<string, string>>;
  /** Always drawn, whatever the filter says (the leaf, the selected entry). */
  forceVisible?: ReadonlySet<string>;
}

/** Bookkeeping entries pi's default /tree view hides. */
const SETTINGS_TYPES = new Set([
  'label',
  'context_edit',
  'custom',
  'model_change',
  'thinking_level_change',
  'active_tools_change',
  'session_info',
]);

/** Whether an assistant message carries text (main computes `hasText`; absent = assume text). */
export function assistantHasText(entry: EntryNodeDto): boolean {
  return entry.hasText !== false;
}

function isErrorOrAborted(entry: EntryNodeDto): boolean {
  return !!entry.stopReason && entry.stopReason !== 'stop' && entry.stopReason !== 'toolUse';
}

export function isEntryVisible(entry: EntryNodeDto, opts: FilterOptions): boolean {
  if (opts.forceVisible?.has(entry.id)) return true;
  if (entry.id === opts.leafId) return true;
  if (entry.type === 'leaf') return opts.showLeafRecords;
  if (entry.type === 'usage') return opts.mode === 'all';
  if (opts.mode === 'all') return true;
  const isMessage = entry.type === 'message';
  if (isMessage && entry.role === 'assistant' && !assistantHasText(entry) && !isErrorOrAborted(entry)) return false;
  switch (opts.mode) {
    case 'user-only':
      return isMessage && entry.role === 'user';
    case 'no-tools':
      return !SETTINGS_TYPES.has(entry.type) && !(isMessage && entry.role === 'toolResult');
    case 'labeled-only':
      return opts.labels[entry.id] !== undefined;
    default:
      return !SETTINGS_TYPES.has(entry.type);
  }
}

/** The tree after filtering: hidden entries splice their children to the nearest visible ancestor. */
export interface VisibleTree {
  index: TreeIndex;
  visible: Uint8Array;
  /** Nearest visible ancestor of a visible entry (-1: it is a drawn root). */
  vparent: Int32Array;
  /** Number of visible children of each visible entry. */
  vkids: Int32Array;
  /** Visible entries in display order (pre-order). */
  vorder: Int32Array;
  /** 1 when the drawn parent is not the real parent (something between is hidden). */
  spliced: Uint8Array;
  hiddenCount: number;
}

export function filterTree(index: TreeIndex, opts: FilterOptions): VisibleTree {
  const n = index.size;
  const visible = new Uint8Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (isEntryVisible(index.entries[i]!, opts)) {
      visible[i] = 1;
      count++;
    }
  }
  // In pre-order a parent comes before its children, so one pass finds every nearest visible ancestor.
  const nearest = new Int32Array(n); // nearest visible ancestor-or-self, -1 none
  const vparent = new Int32Array(n).fill(-1);
  const vkids = new Int32Array(n);
  const spliced = new Uint8Array(n);
  const vorder = new Int32Array(count);
  let k = 0;
  for (let o = 0; o < n; o++) {
    const i = index.order[o]!;
    const p = index.parent[i]!;
    const above = p === -1 ? -1 : nearest[p]!;
    if (visible[i]) {
      nearest[i] = i;
      vparent[i] = above;
      vorder[k++] = i;
      if (above !== -1) {
        vkids[above]!++;
        if (above !== p) spliced[i] = 1;
      }
    } else nearest[i] = above;
  }
  return { index, visible, vparent, vkids, vorder, spliced, hiddenCount: n - count };
}

/** Visible children of an entry, in display order (a scan: for tests and occasional UI use). */
export function visibleChildIds(tree: VisibleTree, id: string | null): string[] {
  const i = id === null ? -1 : (tree.index.indexOf.get(id) ?? -2);
  const out: string[] = [];
  for (const v of tree.vorder) if (tree.vparent[v] === i) out.push(tree.index.ids[v]!);
  return out;
}
