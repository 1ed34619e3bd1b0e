import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSessionText, readSession } from '../../electron/core';
import { NameColumn } from '../../electron/core/engine/name-column';
import { entry, header, indexedSession, jsonl, user } from './helpers';

describe('NameColumn', () => {
  it('gives back what was set per row (none included), across growth', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.option(fc.constantFrom('message', 'leaf', 'user', 'assistant', '', '__proto__'), { nil: undefined }),
          { maxLength: 3000 },
        ),
        (names) => {
          const c = new NameColumn();
          names.forEach((n, i) => c.set(i, n));
          names.forEach((n, i) => expect(c.get(i)).toBe(n));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps names past its 16-bit code space per row', () => {
    const c = new NameColumn();
    const n = 70_000;
    for (let i = 0; i < n; i++) c.set(i, `t${i}`);
    c.set(n, 't5');
    for (let i = 0; i < n; i += 997) expect(c.get(i)).toBe(`t${i}`);
    expect(c.get(n - 1)).toBe(`t${n - 1}`);
    expect(c.get(n)).toBe('t5');
  });
});

describe('an indexed session with many distinct entry types', () => {
  it('indexes them all (no limit on distinct types) and reads as the parsed file', () => {
    const entries = [
      user('u0', null),
      ...Array.from({ length: 600 }, (_, i) => entry(`kind_${i}`, `e${i}`, i === 0 ? 'u0' : `e${i - 1}`)),
    ];
    const lazy = indexedSession(entries);
    const eager = parseSessionText(jsonl([header(), ...entries]));
    expect(lazy.entries.map((e) => e.type)).toEqual(eager.entries.map((e) => e.type));
    expect(readSession(lazy)).toEqual(readSession(eager));
  });
});
