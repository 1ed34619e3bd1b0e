import { describe, expect, it } from 'vitest';
import { fitViewport } from '../../../renderer/src/features/graph/model/fit';

describe('fitViewport', () => {
  it('centres a layout that fits, never zooming in past maxZoom', () => {
    expect(fitViewport({ width: 100, height: 50 }, { width: 1000, height: 700 })).toEqual({ x: 450, y: 325, zoom: 1 });
  });
  it('zooms out to show a wide layout whole, with padding', () => {
    const v = fitViewport({ width: 12_000, height: 600 }, { width: 1200, height: 800 }, { padding: 0 })!;
    expect(v.zoom).toBeCloseTo(0.1);
    expect(v.x).toBeCloseTo(0);
    expect(v.y).toBeCloseTo((800 - 60) / 2);
  });
  it('keeps the roots in view when even the smallest zoom cannot show it all', () => {
    const v = fitViewport({ width: 2000, height: 1_000_000 }, { width: 1200, height: 800 }, { minZoom: 0.05 })!;
    expect(v.zoom).toBe(0.05);
    expect(v.y).toBeCloseTo(40);
    expect(v.x).toBeCloseTo((1200 - 100) / 2);
  });
  it('centres the first root across when the layout is too big, so a deep tree drifting sideways still shows its top', () => {
    const v = fitViewport(
      { width: 60_000, height: 1_000_000 },
      { width: 600, height: 800 },
      { minZoom: 0.05, rootX: 50_000 },
    )!;
    expect(v.zoom).toBe(0.05);
    expect(v.x).toBeCloseTo(300 - 2500);
    // A layout that fits ignores the root: it is shown whole, centred.
    expect(fitViewport({ width: 100, height: 50 }, { width: 1000, height: 700 }, { rootX: 90 })!.x).toBe(450);
  });
  it('has nothing to fit for an empty layout', () => {
    expect(fitViewport({ width: 0, height: 0 }, { width: 1000, height: 700 })).toBeNull();
  });
});
