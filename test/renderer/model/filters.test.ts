import { describe, expect, it } from 'vitest';
import {
  filterTree,
  isEntryVisible,
  visibleChildIds,
  type FilterMode,
  type FilterOptions,
} from '../../../renderer/src/model/filters';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import type { EntryNodeDto } from '../../../electron/shared/dto';
import { lines, node } from '../helpers';

const opts = (mode: FilterMode, extra: Partial<FilterOptions> = {}): FilterOptions => ({
  mode,
  showLeafRecords: false,
  leafId: null,
  labels: {},
  ...extra,
});

const user = node('u', null);
const toolOnly = node('a1', 'u', { role: 'assistant', hasText: false, toolNames: ['read'], stopReason: 'toolUse' });
const withText = node('a2', 'u', { role: 'assistant', hasText: true, toolNames: ['read'], stopReason: 'toolUse' });
const aborted = node('a3', 'u', { role: 'assistant', hasText: false, stopReason: 'aborted' });
const result = node('t', 'a1', { role: 'toolResult', toolNames: ['read'] });
const settings: EntryNodeDto[] = [
  'label',
  'custom',
  'model_change',
  'thinking_level_change',
  'session_info',
  'active_tools_change',
].map((type) => node(type, 'u', { type, role: undefined }));
const leafRecord = node('lf', 'u', { type: 'leaf', role: undefined, targetId: 'u' });
const compaction = node('c', 'u', { type: 'compaction', role: undefined });
const customMsg = node('cm', 'u', { type: 'custom_message', role: undefined });

describe('isEntryVisible (pi /tree filter modes)', () => {
  it('default hides bookkeeping entries and tool-call-only assistant messages', () => {
    const o = opts('default');
    for (const e of settings) expect(isEntryVisible(e, o), e.type).toBe(false);
    expect(isEntryVisible(toolOnly, o)).toBe(false);
    expect(isEntryVisible(withText, o)).toBe(true);
    expect(isEntryVisible(aborted, o)).toBe(true);
    expect(isEntryVisible(result, o)).toBe(true);
    expect(isEntryVisible(compaction, o)).toBe(true);
    expect(isEntryVisible(customMsg, o)).toBe(true);
    expect(isEntryVisible(user, o)).toBe(true);
  });

  it('keeps the leaf and forced entries visible whatever the mode', () => {
    expect(isEntryVisible(toolOnly, opts('default', { leafId: 'a1' }))).toBe(true);
    expect(isEntryVisible(settings[0]!, opts('user-only', { forceVisible: new Set(['label']) }))).toBe(true);
  });

  it('no-tools also hides tool results', () => {
    expect(isEntryVisible(result, opts('no-tools'))).toBe(false);
    expect(isEntryVisible(withText, opts('no-tools'))).toBe(true);
    expect(isEntryVisible(settings[2]!, opts('no-tools'))).toBe(false);
  });

  it('user-only shows user messages only', () => {
    expect(isEntryVisible(user, opts('user-only'))).toBe(true);
    for (const e of [withText, result, compaction, customMsg]) expect(isEntryVisible(e, opts('user-only'))).toBe(false);
  });

  it('labeled-only shows entries that carry a label', () => {
    const o = opts('labeled-only', { labels: { t: 'important' } });
    expect(isEntryVisible(result, o)).toBe(true);
    expect(isEntryVisible(user, o)).toBe(false);
  });

  it('all shows everything except leaf records, which have their own toggle', () => {
    for (const e of [...settings, toolOnly, result]) expect(isEntryVisible(e, opts('all'))).toBe(true);
    expect(isEntryVisible(leafRecord, opts('all'))).toBe(false);
    expect(isEntryVisible(leafRecord, opts('default', { showLeafRecords: true }))).toBe(true);
  });
});

describe('filterTree', () => {
  it('splices children of hidden entries to the nearest visible ancestor, keeping /tree order', () => {
    // u → a(tool only) → t1 ; u → m(model_change) → a2 ; a(tool only) → t2
    const entries = lines([
      node('u', null),
      node('a', 'u', { role: 'assistant', hasText: false, stopReason: 'toolUse' }),
      node('t1', 'a', { role: 'toolResult' }),
      node('m', 'u', { type: 'model_change', role: undefined }),
      node('a2', 'm', { role: 'assistant', hasText: true }),
      node('t2', 'a', { role: 'toolResult' }),
    ]);
    const index = buildTreeIndex(entries, 'a2');
    const vt = filterTree(index, opts('default', { leafId: 'a2' }));
    // The leaf's branch (via m) first, then a's children in timestamp order.
    expect(visibleChildIds(vt, 'u')).toEqual(['a2', 't1', 't2']);
    const ids = (arr: ArrayLike<number>) => Array.from(arr, (i) => index.ids[i]!);
    expect(index.ids[vt.vparent[index.indexOf.get('t1')!]!]).toBe('u');
    expect(ids(vt.spliced.reduce<number[]>((acc, f, i) => (f ? [...acc, i] : acc), [])).sort()).toEqual([
      'a2',
      't1',
      't2',
    ]);
    expect(vt.hiddenCount).toBe(2);
    expect(ids(vt.vorder)).toEqual(['u', 'a2', 't1', 't2']);
  });

  it('turns children of a hidden root into roots', () => {
    const entries = lines([
      node('s', null, { type: 'session_info', role: undefined }),
      node('u1', 's'),
      node('u2', 's'),
    ]);
    const index = buildTreeIndex(entries, 'u2');
    const vt = filterTree(index, opts('default'));
    expect(visibleChildIds(vt, null)).toEqual(['u2', 'u1']);
    expect(vt.vparent[index.indexOf.get('u1')!]).toBe(-1);
  });
});
