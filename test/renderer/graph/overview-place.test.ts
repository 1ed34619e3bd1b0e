import { describe, expect, it } from 'vitest';
import { cornerRect, overviewCorner, screenRect } from '../../../renderer/src/features/graph/model/overview-place';

const pane = { width: 560, height: 500 };
const box = { width: 202, height: 142 };

describe('overviewCorner', () => {
  it('stays bottom-right when nothing is under it, and moves away from a node it would cover', () => {
    expect(overviewCorner(pane, box, [])).toBe('bottom-right');
    const leafBottomRight = { left: 450, top: 420, width: 60, height: 30 };
    expect(overviewCorner(pane, box, [leafBottomRight])).toBe('top-right');
    const topRight = { left: 400, top: 20, width: 60, height: 30 };
    expect(overviewCorner(pane, box, [leafBottomRight, topRight])).toBe('top-left');
  });

  it('is null when every corner would cover one (the overview hides)', () => {
    const all = (['bottom-right', 'top-right', 'top-left'] as const).map((c) => cornerRect(c, pane, box));
    expect(overviewCorner(pane, box, all)).toBeNull();
  });

  it('maps a layout centre to a screen box through the transform', () => {
    expect(screenRect({ x: 100, y: 50 }, { width: 20, height: 10 }, [5, 7, 2])).toEqual({
      left: 185,
      top: 97,
      width: 40,
      height: 20,
    });
  });
});
