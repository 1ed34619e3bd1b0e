import { describe, expect, it } from 'vitest';
import { countByRule, exportRequest, linesOf } from '../../../renderer/src/features/export/export-model';

describe('the export dialog model', () => {
  it('turns the chosen entries into a request (a leaf, or all; the branch needs neither)', () => {
    const leaves = { selected: 'e1', whatIf: 'w1' };
    expect(exportRequest('s', 'md', 'branch', true, leaves)).toEqual({ sessionId: 's', format: 'md', redact: true });
    expect(exportRequest('s', 'html', 'selected', true, leaves)).toMatchObject({ leafId: 'e1' });
    expect(exportRequest('s', 'html', 'whatif', false, leaves)).toMatchObject({ leafId: 'w1', redact: false });
    expect(exportRequest('s', 'jsonl', 'all', true, leaves)).toEqual({
      sessionId: 's',
      format: 'jsonl',
      redact: true,
      all: true,
    });
    expect(exportRequest('s', 'md', 'selected', true, { selected: null, whatIf: null })).not.toHaveProperty('leafId');
  });

  it('counts replacements by rule, most first; reads one pattern per line', () => {
    expect(countByRule(['aws', 'github', 'aws'])).toBe('3 values (aws 2, github 1)');
    expect(countByRule([])).toBe('0 values');
    expect(linesOf(' a \n\n b\n')).toEqual(['a', 'b']);
  });
});
