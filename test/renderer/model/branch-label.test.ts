import { describe, expect, it } from 'vitest';
import { branchLabel, branchText } from '../../../renderer/src/model/branch-label';
import { buildTreeIndex } from '../../../renderer/src/model/tree-index';
import { lines, node } from '../helpers';

//  u1 → a1 ─┬─ u2 → a2 (leaf)
//           ├─ u3 → a3 → t3          (tip t3: first new prompt u3, after u1)
//           └─ a4                    (tip a4: no new prompt yet)
const entries = lines([
  node('u1', null, { preview: 'plan the parser' }),
  node('a1', 'u1', { role: 'assistant', preview: 'ok' }),
  node('u2', 'a1', { preview: 'do it with a stack' }),
  node('a2', 'u2', { role: 'assistant', preview: 'done' }),
  node('u3', 'a1', { preview: 'do it recursively' }),
  node('a3', 'u3', { role: 'assistant', preview: 'hm' }),
  node('t3', 'a3', { role: 'toolResult', preview: 'out' }),
  node('a4', 'a1', { role: 'assistant', preview: 'retry' }),
]);
const index = buildTreeIndex(entries, 'a2');

describe('branchLabel', () => {
  it('tells sibling tips apart: where each branches off and its first new prompt', () => {
    expect(branchLabel(index, 't3')).toEqual({ after: 'plan the parser', first: 'do it recursively' });
    expect(branchLabel(index, 'a2')).toEqual({ after: 'plan the parser', first: 'do it with a stack' });
    expect(branchLabel(index, 'a4')).toEqual({ after: 'plan the parser', first: '' });
    expect(branchText(branchLabel(index, 't3'))).toBe('do it recursively · after “plan the parser”');
    expect(branchText(branchLabel(index, 'a4'))).toBe('after “plan the parser”');
  });

  it('a straight session has nothing to branch off', () => {
    const straight = buildTreeIndex(
      lines([node('u1', null, { preview: 'hi' }), node('a1', 'u1', { role: 'assistant' })]),
      'a1',
    );
    expect(branchLabel(straight, 'a1')).toEqual({ after: '', first: 'hi' });
    expect(branchLabel(straight, 'missing')).toEqual({ after: '', first: '' });
  });
});
