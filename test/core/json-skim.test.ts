/**
 * The skimmer against JSON.parse: a skimmed line parses exactly when the whole line does, to the
 * same value except strings under the cut keys (prefixes of at least `keep` units, or any prefix
 * for dropped keys); and previews and usage read from a skimmed line equal those of the whole line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryUsageFact } from '../../electron/core/rules/cost-ledger';
import { hasNonSpace, PREVIEW_SKIM_KEYS, previewEntry } from '../../electron/core/rules/entry-preview';
import { JsonSkimmer, type SkimKeys } from '../../electron/core/engine/json-skim';
import type { Entry } from '../../electron/core';

const enc = new TextEncoder();
const dec = new TextDecoder();
const decode = (b: Uint8Array, start: number, end: number): string => dec.decode(b.subarray(start, end));

const SMALL: SkimKeys = { prefix: ['text', 'content'], keep: 8, drop: ['data'] };

/** The line's bytes `shift` bytes into a bigger buffer, between quotes and backslashes. */
function placed(line: Uint8Array, shift: number): [Uint8Array, number, number] {
  const buf = new Uint8Array(line.length + shift + 7).fill(0x5c);
  buf.fill(0x22, 0, shift);
  buf.set(line, shift);
  return [buf, shift, shift + line.length];
}

function skimAt(keys: SkimKeys, line: Uint8Array, shift = 0): string | null | undefined {
  const [b, start, end] = placed(line, shift);
  return new JsonSkimmer(decode, keys).skim(b, start, end);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `skim` is `whole` with the strings under the cut keys shortened as promised. */
function expectSkimmed(whole: unknown, skim: unknown, keys: SkimKeys, key: string | null = null): void {
  if (typeof whole === 'string' && key !== null && (keys.prefix.includes(key) || keys.drop.includes(key))) {
    expect(typeof skim).toBe('string');
    const s = skim as string;
    expect(whole.startsWith(s), `${key}: a prefix`).toBe(true);
    if (keys.prefix.includes(key) && s.length < whole.length) {
      expect(s.length).toBeGreaterThanOrEqual(keys.keep);
      expect(hasNonSpace(s)).toBe(true);
    }
    return;
  }
  if (Array.isArray(whole)) {
    expect(Array.isArray(skim)).toBe(true);
    expect((skim as unknown[]).length).toBe(whole.length);
    whole.forEach((v, i) => expectSkimmed(v, (skim as unknown[])[i], keys));
    return;
  }
  if (whole !== null && typeof whole === 'object') {
    const obj = skim as Record<string, unknown>;
    expect(Object.keys(obj)).toEqual(Object.keys(whole));
    for (const [k, v] of Object.entries(whole)) expectSkimmed(v, obj[k], keys, k);
    return;
  }
  expect(skim).toBe(whole);
}

// Units that stress a cut: escapes, multi-byte characters, surrogates (paired and lone), spaces.
const UNITS = [
  'a',
  'b c',
  ' ',
  '  ',
  '\n',
  '\t',
  '"',
  '\\',
  '/',
  '\u0001',
  '\u001f',
  'é',
  '—',
  '🌳',
  '\u2028',
  '\u00a0',
  '\ud800',
  '\udc00',
];
const longish = (max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...UNITS), { maxLength: max }).map((u) => u.join(''));
const str = fc.oneof(
  fc.string({ maxLength: 10 }),
  longish(40),
  fc.constantFrom('', ' '.repeat(30), `${' '.repeat(20)}x`),
);
const key = fc.constantFrom('text', 'content', 'data', 'summary', 'type', 'id', '', 'te', 'x');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
}));
/** pi's compact JSON, or with spaces between the tokens. */
const lineOf = (v: unknown, spaced: boolean): string =>
  spaced ? JSON.stringify(v, null, 1).replace(/\n/g, ' ') : JSON.stringify(v);

describe('JsonSkimmer', () => {
  it('gives valid JSON lines back with only the cut keys shortened, wherever the line sits in its buffer', () => {
    fc.assert(
      fc.property(value, fc.boolean(), fc.integer({ min: 0, max: 7 }), (v, spaced, shift) => {
        const line = enc.encode(lineOf(v, spaced));
        const skim = skimAt(SMALL, line, shift);
        expect(skim).not.toBeNull();
        expect(skimAt(SMALL, line, (shift + 1) % 8)).toEqual(skim);
        if (typeof skim !== 'string') return;
        expectSkimmed(JSON.parse(dec.decode(line)), JSON.parse(skim), SMALL);
      }),
      { numRuns: 3000 },
    );
  });

  it('cuts long strings under its keys, and answers undefined when the kept part is blank', () => {
    const line = enc.encode(
      JSON.stringify({
        text: 'x'.repeat(100),
        data: 'y'.repeat(50),
        content: ' '.repeat(50) + 'z',
        other: 'w'.repeat(100),
      }),
    );
    expect(skimAt(SMALL, line)).toBeUndefined();
    const cut = skimAt(
      SMALL,
      enc.encode(
        JSON.stringify({ text: 'x'.repeat(100), data: 'y'.repeat(50), other: 'w'.repeat(100), arr: ['q'.repeat(30)] }),
      ),
    );
    expect(JSON.parse(cut!)).toEqual({ text: 'x'.repeat(8), data: '', other: 'w'.repeat(100), arr: ['q'.repeat(30)] });
  });

  it('answers null for a cut string whose cut part is not JSON', () => {
    const long = 'x'.repeat(20);
    for (const bad of ['\\u00g0', '\\u0\u0010001f', '\\x', '\\u12', '\u0001', '\\']) {
      for (const line of [`{"text":"${long}${bad}${long}"}`, `{"text":"${long}${bad}`, `{"data":"${bad}"}`]) {
        expect(parses(line), line).toBe(false);
        expect(skimAt(SMALL, enc.encode(line)), line).toBeNull();
      }
    }
  });

  it('parses exactly when the whole line does, whatever byte is put in, taken out or cut off', () => {
    const mutation = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('insert', 'delete', 'replace', 'truncate'),
      byte: fc.oneof(
        fc.integer({ min: 0, max: 0x1f }),
        fc.constantFrom(0x22, 0x5c, 0x75, 0x7b, 0x7d, 0x2c, 0x3a, 0x20, 0x30),
        fc.integer({ min: 0x80, max: 0xff }),
      ),
    });
    fc.assert(
      fc.property(
        value,
        fc.boolean(),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (v, spaced, edits, shift) => {
          const bytes = [...enc.encode(lineOf(v, spaced))];
          for (const m of edits) {
            const at = bytes.length === 0 ? 0 : m.at % bytes.length;
            if (m.kind === 'insert') bytes.splice(at, 0, m.byte);
            else if (m.kind === 'delete') bytes.splice(at, 1);
            else if (m.kind === 'replace') bytes[at] = m.byte;
            else bytes.length = at;
          }
          const line = Uint8Array.from(bytes);
          const whole = dec.decode(line);
          const skim = skimAt(SMALL, line, shift);
          if (skim === undefined) return;
          if (skim === null) {
            expect(parses(whole), `null for a line that parses: ${whole}`).toBe(false);
            return;
          }
          expect(parses(skim), whole).toBe(parses(whole));
          if (parses(whole)) expectSkimmed(JSON.parse(whole), JSON.parse(skim), SMALL);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

// --- previews: the keys previewEntry declares, on entries shaped like pi's with long strings ---

/** Strings around the preview's keep length (641 units), in every kind of unit. */
const short = fc.string({ maxLength: 30 });
const mixed = fc.array(fc.constantFrom(...UNITS), { minLength: 300, maxLength: 1400 }).map((u) => u.join(''));
const text = fc.oneof(
  { weight: 3, arbitrary: short },
  { weight: 5, arbitrary: mixed },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...UNITS), fc.integer({ min: 300, max: 1400 }), longish(12))
      .map(([u, n, tail]) => `${tail}${u.repeat(n)}${tail}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 600, max: 700 }), fc.constantFrom('word ', 'a\n', 'é—', ' ', '\n\n  '))
      .map(([n, w]) => w.repeat(Math.ceil(n / w.length)).slice(0, n)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 630, max: 700 }).map((n) => `${' '.repeat(n)}late text`) },
);
/** Tool arguments: what a cut must not break around (rarely blank, so most such lines are cut). */
const arg = fc.oneof(short, mixed);
const usage = fc.record({
  input: fc.nat(),
  output: fc.nat(),
  cacheRead: fc.nat(),
  cacheWrite: fc.nat(),
  cost: fc.record({ total: fc.double({ min: 0, max: 9, noNaN: true }) }),
});
const textBlock = fc.record(
  { type: fc.constant('text'), text, textSignature: fc.option(text, { nil: undefined }) },
  { requiredKeys: ['type', 'text'] },
);
const block = fc.oneof(
  textBlock,
  fc.record({ type: fc.constant('thinking'), thinking: text, thinkingSignature: text }),
  fc.record({ type: fc.constant('image'), data: text, mimeType: fc.constant('image/png') }),
  fc.record({
    type: fc.constant('toolCall'),
    id: fc.string(),
    name: fc.oneof(fc.constantFrom('read', 'bash', 'edit'), mixed),
    arguments: fc.record({ path: arg, content: arg, command: arg, oldText: arg, newText: arg }),
  }),
);
const content = fc.oneof(text, fc.array(block, { maxLength: 4 }));
const message = fc.oneof(
  fc.record({ role: fc.constant('user'), content }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.array(block, { minLength: 1, maxLength: 4 }),
    provider: fc.constantFrom('anthropic', 'openai'),
    model: short,
    usage,
    stopReason: fc.constantFrom('stop', 'toolUse'),
  }),
  fc.record(
    {
      role: fc.constant('assistant'),
      content,
      provider: fc.constantFrom('anthropic', 'openai'),
      model: text,
      usage,
      stopReason: fc.constantFrom('stop', 'toolUse', 'error', 'aborted'),
      errorMessage: fc.option(text, { nil: undefined }),
    },
    { requiredKeys: ['role', 'content', 'usage', 'stopReason'] },
  ),
  fc.record({
    role: fc.constant('toolResult'),
    toolCallId: fc.string(),
    toolName: fc.oneof(fc.constantFrom('read', 'bash'), text),
    content,
    details: fc.record({ diff: text, output: text }),
    isError: fc.boolean(),
  }),
  fc.record({
    role: fc.constant('bashExecution'),
    command: text,
    output: text,
    exitCode: fc.integer({ min: 0, max: 2 }),
    excludeFromContext: fc.boolean(),
  }),
  fc.record({ role: fc.constantFrom('custom', 'hookMessage'), customType: text, content }),
  fc.record({ role: fc.constant('system'), content }),
);
const entry = fc.oneof(
  { weight: 4, arbitrary: fc.record({ type: fc.constant('message'), message }) },
  fc.record({
    type: fc.constant('compaction'),
    summary: text,
    firstKeptEntryId: fc.string(),
    tokensBefore: fc.nat(),
    usage,
    details: fc.record({ readFiles: fc.array(text, { maxLength: 2 }) }),
  }),
  fc.record({ type: fc.constant('branch_summary'), summary: text, fromId: fc.string(), usage }),
  fc.record({ type: fc.constant('custom_message'), customType: text, content, display: fc.boolean() }),
  fc.record({ type: fc.constant('custom'), customType: text, data: fc.oneof(text, fc.record({ content: text })) }),
  fc.record({ type: fc.constant('label'), targetId: fc.string(), label: text }),
  fc.record({ type: fc.constant('session_info'), name: text }),
);

/** Assistant turns of tool calls with long names and arguments (names are read whole). */
const toolCalls = fc.record({
  type: fc.constant('message'),
  message: fc.record({
    role: fc.constant('assistant'),
    content: fc.array(
      fc.record({
        type: fc.constant('toolCall'),
        id: short,
        name: mixed,
        arguments: fc.record({ path: arg, content: arg }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    stopReason: fc.constant('toolUse'),
  }),
});

describe('PREVIEW_SKIM_KEYS', () => {
  it('a skimmed line gives the same preview and usage as the whole line', () => {
    const skimmer = new JsonSkimmer(decode, PREVIEW_SKIM_KEYS);
    let cut = 0;
    let longNames = 0;
    fc.assert(
      fc.property(fc.oneof(entry, toolCalls), (fields) => {
        const line = enc.encode(
          JSON.stringify({ ...fields, id: 'e1', parentId: null, timestamp: '2026-01-01T00:00:00.000Z' }),
        );
        const skim = skimmer.skim(line, 0, line.length);
        expect(skim).not.toBeNull();
        if (typeof skim !== 'string') return;
        if (skim.length < line.length) cut++;
        const asEntry = (raw: Record<string, unknown>): Entry =>
          ({ type: raw.type as string, raw }) as unknown as Entry;
        const whole = asEntry(JSON.parse(dec.decode(line)) as Record<string, unknown>);
        const part = asEntry(JSON.parse(skim) as Record<string, unknown>);
        expect(previewEntry(part)).toEqual(previewEntry(whole));
        if (skim.length < line.length && previewEntry(whole).toolNames?.some((n) => n.length > 700)) longNames++;
        expect(entryUsageFact(part)).toEqual(entryUsageFact(whole));
      }),
      // Lines are long: report the first failure as found (shrinking them would take minutes).
      { numRuns: 1500, endOnFailure: true },
    );
    // The property ran on lines that were really cut.
    expect(cut).toBeGreaterThan(300);
    expect(longNames).toBeGreaterThan(100);
  });
});
