import { describe, expect, it } from 'vitest';
import { editsOf, lineDiff } from '../../../renderer/src/features/inspector/edit-diff';

describe('edit call diff', () => {
  it('reads edits as pi does (array, JSON string, single object, legacy fields)', () => {
    const e = { oldText: 'a', newText: 'b' };
    expect(editsOf({ edits: [e] })).toEqual([e]);
    expect(editsOf({ edits: JSON.stringify([e]) })).toEqual([e]);
    expect(editsOf({ edits: e })).toEqual([e]);
    expect(editsOf({ path: 'x', oldText: 'a', newText: 'b' })).toEqual([e]);
    expect(editsOf({ path: 'x' })).toBeNull();
  });
  it('diffs lines old → new with context kept', () => {
    expect(lineDiff('one\ntwo\nthree\nfour', 'one\nTWO\nthree\nfour\nfive').split('\n')).toEqual([
      ' one',
      '-two',
      '+TWO',
      ' three',
      ' four',
      '+five',
    ]);
    expect(lineDiff('same', 'same')).toBe(' same');
  });
});
