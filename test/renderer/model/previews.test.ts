import { describe, expect, it } from 'vitest';
import { previewMissing, previewText } from '../../../renderer/src/model/previews';

const lazy = { b: { id: 'b', preview: 'from the batch' } } as never;

describe('an entry preview, from the graph or its batch', () => {
  it('takes the graph text first, the batch when the graph has none, else nothing', () => {
    expect(previewText({ id: 'a', preview: 'from the graph' }, lazy)).toBe('from the graph');
    expect(previewText({ id: 'b', preview: '' }, lazy)).toBe('from the batch');
    expect(previewText({ id: 'c', preview: '' }, lazy)).toBe('');
  });

  it('is missing only in a pending graph, until its batch arrives', () => {
    expect(previewMissing({ id: 'c', preview: '' }, lazy, true)).toBe(true);
    expect(previewMissing({ id: 'b', preview: '' }, lazy, true)).toBe(false);
    expect(previewMissing({ id: 'c', preview: '' }, lazy, false)).toBe(false);
    expect(previewMissing({ id: 'a', preview: 'x' }, lazy, true)).toBe(false);
  });
});
