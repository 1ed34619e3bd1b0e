import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexById, type Entry } from '../../electron/core';
import { hashBytes, hashText, IdTable } from '../../electron/core/engine/id-table';
import { assistant, indexedSession, user } from './helpers';

const enc = new TextEncoder();

/** A small alphabet: duplicates and shared prefixes are frequent; one non-ASCII letter. */
const idArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '0', '1', '-', 'é'), minLength: 0, maxLength: 6 });

type Op = { kind: 'add'; id: string; asBytes: boolean } | { kind: 'undo' } | { kind: 'reserve'; n: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('add' as const), id: idArb, asBytes: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'undo' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reserve' as const), n: fc.integer({ min: 0, max: 5000 }) }) },
);

describe('IdTable', () => {
  it('hashes bytes and text of an ASCII id alike', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }), (id) => {
        const b = enc.encode(`xx${id}yy`);
        expect(hashBytes(b, 2, 2 + id.length)).toBe(hashText(id));
      }),
    );
  });

  it('answers like a Map where the later id wins, through duplicates, undos of the last add and growth', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), fc.constantFrom(2, 4, 2048), (ops, initialSlots) => {
        // Tiny tables: many collisions, and growth right at the add an undo takes back.
        const t = new IdTable(undefined, initialSlots);
        const ids: string[] = [];
        // Model: id → winner index, and per add the winner it replaced (for undo).
        const model = new Map<string, number>();
        let lastPrevious: number | null = null;
        for (const op of ops) {
          if (op.kind === 'add') {
            const i = ids.length;
            const ascii = [...op.id].every((c) => c.charCodeAt(0) < 0x80);
            const previous =
              op.asBytes && ascii ? t.addBytes(i, enc.encode(`>${op.id}<`), 1, 1 + op.id.length) : t.addText(i, op.id);
            expect(previous).toBe(model.get(op.id) ?? -1);
            model.set(op.id, i);
            ids.push(op.id);
            lastPrevious = previous;
          } else if (op.kind === 'undo') {
            // Only the last add can be taken back (a provisional line), once.
            if (lastPrevious === null) continue;
            const id = ids.pop()!;
            t.removeLast(lastPrevious);
            if (lastPrevious >= 0) model.set(id, lastPrevious);
            else model.delete(id);
            lastPrevious = null;
          } else {
            t.reserve(op.n);
          }
        }
        expect(t.count).toBe(ids.length);
        expect(t.size).toBe(model.size);
        for (let i = 0; i < ids.length; i++) expect(t.text(i)).toBe(ids[i]);
        for (const [id, winner] of model) {
          expect(t.find(id)).toBe(winner);
          if ([...id].every((c) => c.charCodeAt(0) < 0x80)) {
            const b = enc.encode(id);
            expect(t.findBytes(b, 0, b.length)).toBe(winner);
          }
        }
        expect(t.find('zzz-not-there')).toBe(-1);
        for (let i = 0; i < ids.length; i++) {
          for (let j = 0; j < ids.length; j += 7) expect(t.sameId(i, j)).toBe(ids[i] === ids[j]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds every other id after the add that grew the table is taken back', () => {
    // Growth re-places every id; the one just added must go in last, or emptying its slot on an
    // undo would cut the probe sequence of an id placed after it.
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 70 }),
        (ids) => {
          const t = new IdTable(undefined, 2);
          ids.forEach((id, i) => t.addText(i, id));
          t.removeLast(-1);
          for (let i = 0; i < ids.length - 1; i++) expect(t.find(ids[i]!)).toBe(i);
          expect(t.find(ids[ids.length - 1]!)).toBe(-1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('grows past its first table and pool (thousands of ids)', () => {
    const t = new IdTable();
    const n = 20_000;
    for (let i = 0; i < n; i++) t.addText(i, `019b8a8e-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(t.size).toBe(n);
    for (let i = 0; i < n; i += 997) expect(t.find(t.text(i))).toBe(i);
  });
});

describe("an indexed session's id index", () => {
  it('answers like the Map of its entries, the later line winning (get, has, size, iteration order)', () => {
    const s = indexedSession([
      user('a', null),
      assistant('b', 'a'),
      user('a', 'b'),
      user('é', 'a'),
      assistant('b', 'é'),
      user('c', 'zz'),
    ]);
    const byId = indexById(s);
    const plain = new Map<string, Entry>();
    for (const e of s.entries) plain.set(e.id, e);
    expect(byId.size).toBe(plain.size);
    expect([...byId]).toEqual([...plain]);
    expect([...byId.keys()]).toEqual([...plain.keys()]);
    expect([...byId.values()]).toEqual([...plain.values()]);
    const seen: string[] = [];
    byId.forEach((e, id) => seen.push(`${id}@${e.line}`));
    expect(seen).toEqual([...plain].map(([id, e]) => `${id}@${e.line}`));
    for (const id of ['a', 'b', 'é', 'c']) expect(byId.get(id)).toBe(plain.get(id));
    expect(byId.has('zz')).toBe(false);
    expect(byId.get('zz')).toBeUndefined();
  });
});
