/**
 * The prefix scanner against JSON.parse: whenever it reads an envelope, the fields are exactly
 * what JSON.parse finds in the line; and it does read every line in the shapes pi writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newEnvelopeScan, scanEnvelope } from '../../electron/core/engine/envelope-scan';
import { isoMillis } from '../../electron/core/engine/iso-millis';

const enc = new TextEncoder();
const dec = new TextDecoder();

type Rec = Record<string, unknown>;

const TYPES = [
  'message',
  'leaf',
  'label',
  'context_edit',
  'custom',
  'custom_message',
  'model_change',
  'compaction',
  'session',
  'branch_summary',
];

/** Strings that stress the scanner: quotes, backslashes, control characters, non-ASCII. */
const nasty = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.constantFrom('', 'a"b', 'a\\b', 'tab\there', 'nl\nx', 'é', '🌳', '\u2028', 'null', '}', '","id":"x'),
);
const plain = fc.stringMatching(/^[0-9a-f]{1,36}$/);
const idLike = fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: nasty });

const entryArb = fc.record({
  type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: nasty }),
  id: idLike,
  parentId: fc.oneof(fc.constant(null), idLike, fc.constant(7)),
  timestamp: fc.oneof(
    { weight: 3, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
    { weight: 1, arbitrary: nasty },
  ),
  role: fc.option(fc.oneof(fc.constantFrom('user', 'assistant', 'toolResult'), nasty)),
  roleFirst: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)),
  message: fc.constantFrom<unknown>('object', null, 'text', 5),
  targetId: fc.option(fc.oneof(idLike, fc.constant(null), fc.constant(3))),
  extra: fc.dictionary(fc.constantFrom('summary', 'data', 'label', 'id', 'content', 'role'), nasty, { maxKeys: 2 }),
  order: fc.constantFrom('pi', 'pi', 'pi', 'ca-custom', 'ca-custom', 'shuffled'),
  tail: fc.constantFrom('', '', '', '', ' ', '\r', ' \t'),
  seed: fc.integer(),
});

type Gen = typeof entryArb extends fc.Arbitrary<infer T> ? T : never;

function build(g: Gen): Rec {
  const payload: Rec = { ...g.extra };
  if (g.type === 'message') {
    if (g.message === 'object') {
      const m: Rec = {};
      if (g.roleFirst && g.role !== null) m.role = g.role;
      m.content = 'x';
      if (!g.roleFirst && g.role !== null) m.role = g.role;
      payload.message = m;
    } else {
      payload.message = g.message;
    }
  }
  if (g.targetId !== null) payload.targetId = g.targetId;
  const envelope: Rec = { type: g.type, id: g.id, parentId: g.parentId, timestamp: g.timestamp };
  if (g.order === 'pi') return { ...envelope, ...payload };
  if (g.order === 'ca-custom')
    return { type: g.type, ...payload, id: g.id, parentId: g.parentId, timestamp: g.timestamp };
  const all = Object.entries({ ...envelope, ...payload });
  let s = g.seed;
  for (let i = all.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return Object.fromEntries(all);
}

function text(b: Uint8Array, start: number, end: number): string {
  return dec.decode(b.subarray(start, end));
}

describe('scanEnvelope', () => {
  it('never disagrees with JSON.parse on a valid line', () => {
    const sc = newEnvelopeScan();
    let matched = 0;
    fc.assert(
      fc.property(entryArb, (g) => {
        const line = JSON.stringify(build(g)) + g.tail;
        const bytes = enc.encode(line);
        if (!scanEnvelope(bytes, 0, bytes.length, sc)) return;
        matched++;
        const v = JSON.parse(line) as Rec;
        expect(text(bytes, sc.typeStart, sc.typeEnd)).toBe(v.type);
        expect(text(bytes, sc.idStart, sc.idEnd)).toBe(v.id);
        expect(sc.parentStart < 0 ? null : text(bytes, sc.parentStart, sc.parentEnd)).toBe(v.parentId);
        expect(text(bytes, sc.tsStart, sc.tsEnd)).toBe(v.timestamp);
        expect(v.type).not.toBe('session');
        expect(v.type).not.toBe('compaction');
        expect((v.id as string).length).toBeGreaterThan(0);
        expect((v.timestamp as string).length).toBeGreaterThan(0);
        if (v.type === 'message') {
          const m = v.message as Rec;
          expect(sc.roleStart).toBeGreaterThanOrEqual(0);
          expect(text(bytes, sc.roleStart, sc.roleEnd)).toBe(m.role);
        } else {
          expect(sc.roleStart).toBe(-1);
        }
        if (v.type === 'leaf' || v.type === 'label' || v.type === 'context_edit') {
          expect(sc.target).not.toBe(-1);
          expect(sc.target === 0 ? null : text(bytes, sc.targetStart, sc.targetEnd)).toBe(v.targetId);
        }
        if (sc.nonAscii === false) {
          for (const [s, e] of [
            [sc.idStart, sc.idEnd],
            [sc.tsStart, sc.tsEnd],
          ] as const) {
            for (let k = s; k < e; k++) expect(bytes[k]!).toBeLessThan(0x80);
          }
        }
      }),
      { numRuns: 4000 },
    );
    expect(matched).toBeGreaterThan(300);
  });

  it('reads every line pi itself writes (plain strings, pi key order)', () => {
    const sc = newEnvelopeScan();
    const piEntry = fc.record({
      type: fc.constantFrom(
        'message',
        'leaf',
        'label',
        'context_edit',
        'custom',
        'custom_message',
        'model_change',
        'thinking_level_change',
        'session_info',
        'branch_summary',
        'active_tools_change',
        'usage',
        'some_future_type',
      ),
      id: plain,
      parentId: fc.option(plain),
      at: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }),
      role: fc.constantFrom('user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'system'),
      target: fc.option(plain),
      body: nasty,
    });
    fc.assert(
      fc.property(piEntry, (p) => {
        const env = { type: p.type, id: p.id, parentId: p.parentId, timestamp: p.at.toISOString() };
        let value: Rec;
        if (p.type === 'message') value = { ...env, message: { role: p.role, content: p.body, timestamp: 1 } };
        else if (p.type === 'leaf') value = { ...env, targetId: p.target };
        else if (p.type === 'label' || p.type === 'context_edit') value = { ...env, targetId: p.target, label: p.body };
        else if (p.type === 'custom' || p.type === 'custom_message') {
          value = {
            type: p.type,
            customType: 'ext',
            data: { text: p.body },
            id: p.id,
            parentId: p.parentId,
            timestamp: env.timestamp,
          };
        } else value = { ...env, note: p.body };
        const bytes = enc.encode(JSON.stringify(value));
        expect(scanEnvelope(bytes, 0, bytes.length, sc)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every strict prefix that does not end in a closing brace, and compaction/header lines', () => {
    const sc = newEnvelopeScan();
    const line = enc.encode(
      JSON.stringify({
        type: 'message',
        id: 'abc',
        parentId: null,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'a}b' },
      }),
    );
    for (let n = 0; n < line.length; n++) {
      if (line[n - 1] === 0x7d) continue;
      expect(scanEnvelope(line, 0, n, sc)).toBe(false);
    }
    for (const v of [
      {
        type: 'compaction',
        id: 'c',
        parentId: null,
        timestamp: 't',
        summary: 's',
        firstKeptEntryId: 'x',
        tokensBefore: 1,
      },
      { type: 'session', id: 'c', parentId: null, timestamp: 't', cwd: '/' },
      { type: 'leaf', id: 'c', parentId: null, timestamp: 't', targetId: 'x', extra: 1 },
    ]) {
      const b = enc.encode(JSON.stringify(v));
      expect(scanEnvelope(b, 0, b.length, sc)).toBe(false);
    }
  });
});

describe('isoMillis', () => {
  it('reads exactly the texts toISOString writes, and gives them back', () => {
    const check = (text: string): void => {
      const b = enc.encode(text);
      const ms = isoMillis(b, 0, b.length);
      if (Number.isNaN(ms)) {
        // Not read: must not be a canonical timestamp of years 0000-9999.
        const d = new Date(text);
        if (!Number.isNaN(d.getTime()) && text.length === 24) expect(d.toISOString()).not.toBe(text);
      } else {
        expect(new Date(ms).toISOString()).toBe(text);
      }
    };
    fc.assert(
      fc.property(
        fc.date({ min: new Date(-62167219200000), max: new Date(253402300799999), noInvalidDate: true }),
        (d) => {
          const text = d.toISOString();
          const b = enc.encode(text);
          if (d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999)
            expect(isoMillis(b, 0, b.length)).toBe(d.getTime());
          check(text);
        },
      ),
      { numRuns: 3000 },
    );
    for (const t of [
      '2026-02-29T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-13-01T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01T00:00:60.000Z',
      '2026-01-01 00:00:00.000Z',
      '2026-01-01T00:00:00.000+',
      '0000-01-01T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '2026-01-01T00:00:00.00aZ',
      '2026-01-01T00:00:00Z',
    ])
      check(t);
    fc.assert(
      fc.property(
        fc.string({ minLength: 24, maxLength: 24, unit: fc.constantFrom(...'0123456789-T:.Z'.split('')) }),
        check,
      ),
      { numRuns: 3000 },
    );
  });
});
