/**
 * A block's entries packed in one blob (entry-pack.ts): every value comes back exactly, the odd
 * ones too (ids that are not 8 hex digits, parents that are not the entry before, times out of
 * step or fractional, gaps between lines), and a typical entry costs a few bytes.
 */
import { describe, expect, it } from 'vitest';
import { SEARCH_ROLES } from '../../electron/search/rules/search-text';
import { packEntries, unpackEntries, type ParsedEntry } from '../../electron/search/entry-pack';
import { Rng } from '../fixtures/corpus/rng';

const hex8 = (r: Rng): string => Array.from({ length: 8 }, () => '0123456789abcdef'[r.int(0, 15)]).join('');

/** Entries as a session file gives them: each the child of the one before, a line and a second apart. */
function typical(r: Rng, n: number, firstLine = 2, firstOffset = 300): ParsedEntry[] {
  const out: ParsedEntry[] = [];
  let line = firstLine;
  let offset = firstOffset;
  let time = 1_758_699_021_800;
  let parent: string | null = null;
  for (let i = 0; i < n; i++) {
    const id = hex8(r);
    const length = r.int(200, 20_000);
    out.push({
      id,
      parentId: parent,
      line,
      offset,
      length,
      role: r.pick(['user', 'assistant', 'tool']),
      time,
      tools: r.pick(['', ' read ', ' bash edit ']),
    });
    parent = id;
    line++;
    offset += length + 1;
    time += r.int(100, 60_000);
  }
  return out;
}

/** Every odd value a line may give. */
function odd(r: Rng, n: number): ParsedEntry[] {
  const ids = [null, 'ABCDEF12', 'e1', 'ünïcode-id', hex8(r), '0000000g', ''];
  const times = [null, 0, -0, -1, 1.5, 8.64e15, -8.64e15, 2 ** 53 - 1, 1e-7, 1_700_000_000_000];
  const out: ParsedEntry[] = [];
  let line = r.int(1, 5);
  let offset = r.int(0, 100);
  for (let i = 0; i < n; i++) {
    const length = r.pick([0, 1, 127, 128, 16_383, 16_384, 2 ** 40]);
    const id = r.pick(ids);
    out.push({
      id,
      parentId: r.pick([null, id, out[i - 1]?.id ?? null, 'x', hex8(r)]),
      line,
      offset,
      length,
      role: r.pick([...SEARCH_ROLES]),
      time: r.pick(times),
      tools: r.pick(['', ' read ', ' a b c ', ' ünï ']),
    });
    line += r.int(1, 1000);
    offset += length + r.int(1, 3);
  }
  return out;
}

describe('a block’s packed entries', () => {
  it('come back exactly, typical and odd', () => {
    const r = new Rng(23);
    for (let k = 0; k < 200; k++) {
      const entries = k % 2 ? typical(r, r.int(1, 200)) : odd(r, r.int(1, 50));
      expect(unpackEntries(packEntries(entries))).toEqual(entries);
    }
    expect(unpackEntries(packEntries([]))).toEqual([]);
  });

  it('keep -0 and a file past 4 GiB', () => {
    const e: ParsedEntry = {
      id: 'abcdef01',
      parentId: null,
      line: 3_000_000_000,
      offset: 2 ** 33,
      length: 5,
      role: 'user',
      time: -0,
      tools: '',
    };
    const [back] = unpackEntries(packEntries([e]));
    expect(back).toEqual(e);
    expect(Object.is(back!.time, -0)).toBe(true);
  });

  it('cost a few bytes an entry', () => {
    const entries = typical(new Rng(7), 200, 1000, 5_000_000);
    // Measured on the 10k store: ~18 bytes an entry with its tool names (a row each cost ~75).
    expect(packEntries(entries).length / entries.length).toBeLessThan(20);
  });

  it('a blob cut short is an error, not a read past its end', () => {
    const packed = packEntries(typical(new Rng(3), 20));
    for (const cut of [1, 5, packed.length - 1])
      expect(() => unpackEntries(packed.subarray(0, cut))).toThrow(/ends early/);
  });
});
