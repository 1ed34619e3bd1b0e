import { describe, expect, it } from 'vitest';
import { listKeyMove } from '../../../renderer/src/ui/list-keys';

describe('list keys', () => {
  it('moves by one, a page and to the ends, clamped', () => {
    expect(listKeyMove('ArrowDown', -1, 5)).toBe(0);
    expect(listKeyMove('ArrowUp', -1, 5)).toBe(4);
    expect(listKeyMove('ArrowDown', 4, 5)).toBe(4);
    expect(listKeyMove('ArrowUp', 0, 5)).toBe(0);
    expect(listKeyMove('PageDown', 1, 50, 10)).toBe(11);
    expect(listKeyMove('Home', 3, 5)).toBe(0);
    expect(listKeyMove('End', 0, 5)).toBe(4);
    expect(listKeyMove('x', 0, 5)).toBeNull();
    expect(listKeyMove('ArrowDown', -1, 0)).toBeNull();
  });
});
