import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rawLineTest } from '../../../electron/search/rules/raw-filter';
import {
  matchEntry,
  parseSearchQuery,
  requiredSubstrings,
  type SearchQuery,
} from '../../../electron/search/rules/search-query';
import { indexedText, searchFields } from '../../../electron/search/rules/search-text';

function parse(text: string): SearchQuery {
  const r = parseSearchQuery(text);
  if (!r.ok) throw new Error(r.error);
  return r.query;
}

const assistantLine = (content: unknown[]): string =>
  JSON.stringify({
    type: 'message',
    id: 'a1',
    parentId: null,
    timestamp: '2026-01-05T10:00:00.000Z',
    message: { role: 'assistant', content },
  });

/** What verification decides after parsing, for comparison with the raw test. */
function matches(q: SearchQuery, line: string): boolean {
  const f = searchFields(JSON.parse(line) as Record<string, unknown>);
  return (
    matchEntry(
      q,
      q.terms.map(() => false),
      f.text,
      f.thinking,
    ) !== null
  );
}

describe('rawLineTest', () => {
  it.each([
    ['a phrase inside one string', '"red fox"', [{ type: 'text', text: 'the red fox ran' }], true],
    ['a phrase over an escaped newline and tab', '"red fox"', [{ type: 'text', text: 'the red\n\tfox ran' }], true],
    [
      'a phrase from one text block into the next',
      '"red fox"',
      [
        { type: 'text', text: 'a red ' },
        { type: 'text', text: ' fox b' },
      ],
      true,
    ],
    [
      'a phrase from a tool name into its arguments',
      '"read src"',
      [{ type: 'toolCall', id: 't', name: 'read', arguments: { path: 'src/a.ts' } }],
      true,
    ],
    [
      'a phrase from one field into a later one',
      '"red fox ran"',
      [
        { type: 'text', text: 'a red' },
        { type: 'text', text: 'fox' },
        { type: 'text', text: ' ran' },
      ],
      true,
    ],
    [
      'one word ends a string, the next starts none',
      '"red fox"',
      [
        { type: 'text', text: 'a red' },
        { type: 'text', text: 'the fox' },
      ],
      false,
    ],
    ['words apart, no phrase', '"red fox"', [{ type: 'text', text: 'red and a fox' }], false],
    // Each two neighbours are together somewhere, the three nowhere: a short phrase is tested whole.
    ['each pair of a phrase apart', '"red fox ran"', [{ type: 'text', text: 'a red fox. The fox ran' }], false],
    [
      'each pair apart, over fields',
      '"red fox ran"',
      [
        { type: 'text', text: 'a red fox' },
        { type: 'text', text: 'fox ran' },
      ],
      false,
    ],
    ['a missing word', 'red wolf', [{ type: 'text', text: 'red fox' }], false],
    ['a regex literal', 're:fo+x\\s+ran', [{ type: 'text', text: 'a fox ran' }], true],
  ])('%s', (_name, query, content, expected) => {
    const q = parse(query);
    const line = assistantLine(content);
    expect(
      rawLineTest(
        q,
        q.terms.map(() => false),
      )(line),
    ).toBe(expected);
    expect(matches(q, line)).toBe(expected);
  });

  it('a term the session meets is not asked of the line', () => {
    const q = parse('"red fox" alpha');
    expect(rawLineTest(q, [false, true])(assistantLine([{ type: 'text', text: 'red fox' }]))).toBe(true);
    expect(rawLineTest(q, [false, false])(assistantLine([{ type: 'text', text: 'red fox' }]))).toBe(false);
  });

  it('never rejects a line holding the phrase or regex, within one string or across strings (words of any lengths)', () => {
    const word = fc.constantFrom('red', 'Fox', 'ad', 'bead', 'foxfox', 'a-b', 'e', 'é', 'cafe');
    const space = fc.constantFrom(' ', '  ', '\n', '\t', '\u00a0', ' \r\n ', '\u2028');
    // Each gap is whitespace in one string, or the end of one text block and the start of the next.
    const gap = fc.tuple(space, fc.boolean(), fc.constantFrom('', ' ', '\n'));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 2, maxLength: 4 }),
        fc.array(gap, { minLength: 3, maxLength: 3 }),
        word,
        (words, gaps, around) => {
          const blocks: string[] = [`${around} `];
          words.forEach((w, k) => {
            blocks[blocks.length - 1] += w;
            if (k === words.length - 1) return;
            const [sp, split, lead] = gaps[k]!;
            if (split) blocks.push(lead);
            else blocks[blocks.length - 1] += sp;
          });
          const line = assistantLine(blocks.map((text) => ({ type: 'text', text })));
          const raw = Buffer.from(line, 'utf8').toString('latin1');
          // The same words as a phrase and as a regex (whose literal runs join at \s+).
          for (const q of [parse(`"${words.join(' ')}"`), parse(`re:${words.join('\\s+')}`)]) {
            if (matches(q, line))
              expect(
                rawLineTest(
                  q,
                  q.terms.map(() => false),
                )(raw),
              ).toBe(true);
          }
        },
      ),
      { numRuns: 3000, seed: 21 },
    );
  });

  it('never rejects a line whose parsed text matches (random texts, blocks and arguments)', () => {
    const word = fc.constantFrom(
      'red',
      'fox',
      'ran',
      'Red',
      'FOX',
      '10',
      'true',
      'ue',
      'a-b',
      'x"y',
      'p/q',
      'é',
      'foxfox',
      'bead',
      'ad',
    );
    const space = fc.constantFrom(' ', '  ', '\n', '\t', '\u00a0', ' \r\n ');
    const text = fc
      .array(fc.tuple(word, space), { maxLength: 8 })
      .map((parts) => parts.map(([w, s]) => w + s).join(''));
    const block = fc.oneof(
      text.map((t) => ({ type: 'text', text: t })),
      text.map((t) => ({ type: 'thinking', thinking: t })),
      fc
        .tuple(word, text, fc.constantFrom(10, 110, 7), fc.boolean())
        .map(([name, t, n, b]) => ({ type: 'toolCall', id: 't1', name, arguments: { path: t, n, b } })),
    );
    const query = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.boolean())
      .map(([ws, phrase]) => (phrase ? `"${ws.join(' ')}"` : ws.join(' ')));
    fc.assert(
      fc.property(query, fc.array(block, { minLength: 1, maxLength: 4 }), (qText, content) => {
        const parsed = parseSearchQuery(qText);
        if (!parsed.ok) return;
        const q = parsed.query;
        const line = assistantLine(content);
        if (!matches(q, line)) return;
        const test = rawLineTest(
          q,
          q.terms.map(() => false),
        );
        // As the query tests it: the line's UTF-8 bytes as latin1, alone or inside a block of lines.
        const raw = Buffer.from(line, 'utf8').toString('latin1');
        expect(test(raw)).toBe(true);
        expect(test(`${assistantLine([{ type: 'text', text: 'other' }])}\n${raw}\n{}`)).toBe(true);
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  it('the trigram prefilter keeps every match too: each required substring is in the indexed text', () => {
    const q = parse('"red fox" ran');
    const f = searchFields(
      JSON.parse(assistantLine([{ type: 'text', text: 'a RED\n\n fox  ran' }])) as Record<string, unknown>,
    );
    const body = indexedText(f).toLowerCase();
    expect(requiredSubstrings(q, [false, false]).every((s) => body.includes(s.toLowerCase()))).toBe(true);
  });
});
