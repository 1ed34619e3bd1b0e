import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMillisText } from '../../electron/core/engine/iso-millis';
import { isoEpochMs } from '../../electron/shared/entry-nodes';

// The graph's wire packing (shared) and the indexer (core) must agree on which timestamps travel
// as epoch ms: the renderer rebuilds those texts with toISOString.
describe('isoEpochMs (shared) and isoMillisText (core)', () => {
  const same = (text: string): void => {
    expect(Object.is(isoEpochMs(text), isoMillisText(text)), text).toBe(true);
  };

  it('agree on every date of years 0000-9999 and on texts near that form', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(-62167219200000), max: new Date(253402300799999), noInvalidDate: true }),
        (d) => {
          same(d.toISOString());
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.string({ minLength: 24, maxLength: 24, unit: fc.constantFrom(...'0123456789-T:.Z'.split('')) }),
        same,
      ),
      { numRuns: 3000 },
    );
    for (const t of [
      '2026-02-29T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T00:00:60.000Z',
      '2026-01-01 00:00:00.000Z',
      '0000-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00Z',
      '+010000-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000z',
    ])
      same(t);
  });

  it('read a canonical timestamp as its epoch ms', () => {
    expect(isoEpochMs('2026-12-02T00:55:00.123Z')).toBe(Date.UTC(2026, 11, 2, 0, 55, 0, 123));
    expect(isoEpochMs('2026-12-02T00:55:00Z')).toBeNaN();
  });
});
