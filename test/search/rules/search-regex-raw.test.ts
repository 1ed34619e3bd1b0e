import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rawLineTest } from '../../../electron/search/rules/raw-filter';
import { regexLineTest, regexShape, regexSpanTest, unescapeJson } from '../../../electron/search/rules/regex-raw';
import { matchEntry, parseSearchQuery, type SearchQuery } from '../../../electron/search/rules/search-query';
import { searchFields } from '../../../electron/search/rules/search-text';
import { entry, LOCAL_PATTERNS, NONLOCAL_PATTERNS, text, writeLine } from '../../fixtures/regex-lines';

function parse(input: string): SearchQuery {
  const r = parseSearchQuery(input);
  if (!r.ok) throw new Error(r.error);
  return r.query;
}

/** What verification decides after parsing. */
function matches(q: SearchQuery, line: string): boolean {
  const f = searchFields(JSON.parse(line) as Record<string, unknown>);
  return matchEntry(q, [], f.text, f.thinking) !== null;
}

/** A line as the query tests it: its UTF-8 bytes read as latin1. */
const latin1 = (line: string): string => Buffer.from(line, 'utf8').toString('latin1');

describe('regexShape', () => {
  it.each(LOCAL_PATTERNS)('takes %s', (p) => expect(regexShape(new RegExp(p, 'i'))).not.toBeNull());
  it.each(NONLOCAL_PATTERNS)('leaves %s to the parse', (p) => expect(regexShape(new RegExp(p, 'i'))).toBeNull());

  it('tells ASCII-only and escape-blind patterns apart', () => {
    expect(regexShape(/[0-9]{3}[a-z]{2}[0-9]/i)).toEqual({ ascii: true, escapeBlind: true });
    expect(regexShape(/é[0-9]/i)).toEqual({ ascii: false, escapeBlind: true });
    expect(regexShape(/[\\/"]7/i)).toEqual({ ascii: true, escapeBlind: false });
    expect(regexShape(/\bk/i)).toEqual({ ascii: true, escapeBlind: false });
    expect(regexShape(/abc/g)).toBeNull();
  });
});

describe('unescapeJson', () => {
  it('decodes each escape once, left to right', () => {
    expect(unescapeJson(String.raw`a\\nb\"c\/d\u00e9\n\t\\u0041`)).toBe('a\\nb"c/dé\n\t\\u0041');
  });
});

describe('regexLineTest', () => {
  it('rejects a line whose only match is in its ids, and keeps one with a match in its text', () => {
    const test = regexLineTest(/[0-9]{3}[a-z]{2}[0-9]/i)!;
    const line = (t: string, call = '123ab4'): string =>
      writeLine(
        {
          type: 'message',
          id: '123ab4',
          parentId: '456cd7',
          timestamp: '2026-01-05T10:00:00.000Z',
          message: { role: 'toolResult', toolCallId: call, toolName: 'ls', content: [{ type: 'text', text: t }] },
        },
        false,
      );
    expect(test(latin1(line('no digits here')))).toBe(false);
    expect(test(latin1(line('see 999zz9 here')))).toBe(true);
    // Ids further in are not skipped (only pi's opening is): such a line is parsed.
    expect(test(latin1(`${line('x')}{"id":"123ab4"}`))).toBe(true);
  });

  it("skips values no text is made of: tool call ids, signatures, images, a message's model", () => {
    const test = regexLineTest(/[0-9]{3}[a-z]{2}[0-9]/i)!;
    /** An assistant's line as pi writes it, with these content blocks and message fields. */
    const assistant = (content: unknown[], more: Record<string, unknown> = {}): string =>
      latin1(
        writeLine(
          {
            type: 'message',
            id: 'a',
            parentId: null,
            timestamp: 'T',
            message: { role: 'assistant', content, ...more },
          },
          false,
        ),
      );
    const calls = (args: unknown, name = 'ls'): string =>
      assistant([
        { type: 'toolCall', id: '111aa1', name, arguments: args },
        { type: 'toolCall', id: '222bb2', name: 'read', arguments: { path: 'x' } },
        { type: 'toolCall', id: '333cc3', name: 'read', arguments: {} },
      ]);
    expect(test(calls({ path: 'a "b" c', n: 1.5e-7, ok: true, none: null }))).toBe(false);
    expect(test(calls({ path: 'see 999zz9' }))).toBe(true);
    expect(test(calls({ path: 'x' }, 'ls 999zz9'))).toBe(true);
    // Values in arguments are text, at any depth and under any key; a thinking block's signature is not.
    expect(test(calls({ nested: { path: 'x', id: ['y'] } }))).toBe(false);
    expect(test(calls({ nested: { id: ['999zz9'] } }))).toBe(true);
    expect(test(calls({ id: '999zz9' }))).toBe(true);
    const signed = assistant(
      [
        { type: 'thinking', thinking: 'hm', thinkingSignature: '123ab4' },
        { type: 'toolCall', id: '111aa1', name: 'ls', arguments: {} },
        { type: 'image', data: '456cd7', mimeType: 'image/png' },
      ],
      {
        api: 'x1',
        provider: 'p',
        model: 'm999zz9',
        usage: { input: 1, cost: { total: 0.5 } },
        stopReason: 'toolUse',
      },
    );
    expect(test(signed)).toBe(false);
    expect(test(signed.replace('"hm"', '"hm 999zz9"'))).toBe(true);
    // Not JSON (a string never closed): nothing past its start is known to be no text (the line is no hit anyway).
    expect(test(`${signed.slice(0, signed.indexOf('"hm"') + 3)} 123ab4`)).toBe(true);
    expect(regexSpanTest(/[0-9]{3}[a-z]{2}[0-9]/i)!(calls({ path: 'x' }), [0], [calls({ path: 'x' }).length])).toEqual([
      false,
    ]);
  });

  it('finds a match across an escape only once the line is decoded', () => {
    const q = parse(String.raw`re:\bk7`);
    const line = writeLine({ type: 'label', id: 'l', parentId: null, label: 'a\nk7' }, false);
    expect(line).toContain(String.raw`\nk7`); // raw, "n" is a word character before k: \b fails there
    expect(new RegExp(String.raw`\bk7`, 'i').test(line)).toBe(false);
    expect(matches(q, line)).toBe(true);
    expect(regexLineTest(q.regex!)!(latin1(line))).toBe(true);
  });

  it('never rejects a line whose parsed text matches (any entry, either writer, alone or in a block)', () => {
    const patterns = LOCAL_PATTERNS.map((p) => ({ q: parse(`re:${p}`), test: regexLineTest(new RegExp(p, 'i'))! }));
    let kept = 0;
    let rejected = 0;
    fc.assert(
      fc.property(entry, fc.boolean(), text, (e, escaping, other) => {
        const line = writeLine(e, escaping);
        const raw = latin1(line);
        const block = `${latin1(writeLine({ type: 'label', id: 'o', parentId: null, label: other }, false))}\n${raw}\n`;
        for (const { q, test } of patterns) {
          if (!matches(q, line)) {
            if (!test(raw)) rejected++;
            continue;
          }
          kept++;
          expect(test(raw), `${q.regex!.source} on ${line}`).toBe(true);
          expect(test(block), `${q.regex!.source} in a block with ${line}`).toBe(true);
        }
      }),
      { numRuns: 4000, seed: 23 },
    );
    // Both sides were tried: lines that match, and lines the test turns away before any parse.
    expect(kept).toBeGreaterThan(2000);
    expect(rejected).toBeGreaterThan(10000);
  });

  it('is part of the raw line test of a re: query, literals or not', () => {
    const line = latin1(
      writeLine({ type: 'label', id: '123ab4', parentId: null, timestamp: 'T', label: 'nothing' }, false),
    );
    expect(rawLineTest(parse('re:[0-9]{3}[a-z]{2}[0-9]'), [])(line)).toBe(false);
    expect(rawLineTest(parse('re:noth[0-9]'), [])(line)).toBe(false);
    expect(rawLineTest(parse('re:noth[a-z]'), [])(line)).toBe(true);
    // Not local: left to the parse.
    expect(rawLineTest(parse('re:^[0-9]{3}'), [])(line)).toBe(true);
  });
});

describe('regexSpanTest', () => {
  it('gives each line of a span what regexLineTest gives it alone (never rejecting a match)', () => {
    const tests = LOCAL_PATTERNS.map((p) => ({
      q: parse(`re:${p}`),
      one: regexLineTest(new RegExp(p, 'i'))!,
      span: regexSpanTest(new RegExp(p, 'i')),
    })).filter((t) => t.span);
    expect(tests.length).toBeGreaterThan(5);
    expect(regexSpanTest(/é[0-9]/i)).toBeNull();
    expect(regexSpanTest(/\bk/i)).toBeNull();
    let kept = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, fc.boolean()), { minLength: 1, maxLength: 6 }), (drawn) => {
        const lines = drawn.map(([e, escaping]) => writeLine(e, escaping));
        const raws = lines.map(latin1);
        const starts: number[] = [];
        const ends: number[] = [];
        let at = 0;
        for (const r of raws) {
          starts.push(at);
          ends.push(at + r.length);
          at += r.length + 1;
        }
        const span = raws.join('\n');
        for (const { q, one, span: test } of tests) {
          const verdicts = test!(span, starts, ends);
          raws.forEach((r, k) => {
            expect(verdicts[k], `${q.regex!.source} on ${lines[k]}`).toBe(one(r));
            if (matches(q, lines[k]!)) kept++;
          });
        }
      }),
      { numRuns: 1500, seed: 29 },
    );
    expect(kept).toBeGreaterThan(1000);
  });
});
