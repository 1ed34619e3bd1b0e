import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentText, hasNonSpace, oneLine, previewEntry } from '../../electron/core/rules/entry-preview';
import type { Entry } from '../../electron/core';

/** The definition oneLine implements in one pass. */
function reference(text: string, max: number): string {
  const cut = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const flat = cut.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// Every kind of whitespace JavaScript's \s knows, a few that it does not, and plain text.
const piece = fc.oneof(
  fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
  ),
  fc.constantFrom('\u200b', '\u0085', '\u180e', '🌳', 'é', '…'),
  fc.string({ maxLength: 30 }),
);
const text = fc.array(piece, { maxLength: 120 }).map((parts) => parts.join(''));

describe('oneLine', () => {
  it('equals collapsing whitespace with a regex, trimming and cutting', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 200 }), (t, max) => {
        expect(oneLine(t, max)).toBe(reference(t, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the definition for words between single spaces too (its plain-slice path)', () => {
    const word = fc.stringMatching(/^(?:[a-zé.]|🌳){1,9}$/);
    const edge = fc.constantFrom('', ' ', '  ', '\n', '\u00a0');
    const words = fc
      .tuple(edge, fc.array(word, { minLength: 1, maxLength: 60 }), fc.constantFrom(' ', '  ', '\t'), edge)
      .map(([a, ws, sep, z]) => a + ws.join(sep) + z);
    fc.assert(
      fc.property(words, fc.integer({ min: 1, max: 200 }), (t, max) => {
        expect(oneLine(t, max)).toBe(reference(t, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('handles the edges: empty, only spaces, exactly max, one over max', () => {
    for (const t of [
      '',
      '   ',
      'a'.repeat(160),
      ` ${'a'.repeat(160)}  `,
      'a'.repeat(161),
      `${'a'.repeat(159)} b`,
      'x'.repeat(5000),
    ]) {
      expect(oneLine(t)).toBe(reference(t, 160));
    }
  });
});

describe('hasNonSpace', () => {
  it("equals `text.trim() !== ''` (JavaScript's whitespace, Unicode included)", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(hasNonSpace(t)).toBe(t.trim() !== '');
      }),
      { numRuns: 3000 },
    );
    for (const t of ['', ' ', '\u00a0\u3000\ufeff', '\u200b', '\u0085', ' x '])
      expect(hasNonSpace(t)).toBe(t.trim() !== '');
  });
});

describe('contentText with a limit', () => {
  const block = fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 400 }) }),
    fc.record({ type: fc.constant('image'), data: fc.string({ maxLength: 5 }) }),
    fc.constant(null),
  );
  it('is a prefix of the whole text, at least `limit` characters long (or all of it)', () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 12 }), fc.integer({ min: 0, max: 900 }), (blocks, limit) => {
        const whole = contentText(blocks);
        const part = contentText(blocks, limit);
        expect(whole.startsWith(part)).toBe(true);
        expect(part.length).toBeGreaterThanOrEqual(Math.min(limit, whole.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same preview as the whole text for a huge tool output', () => {
    const big = `${'line of output\n'.repeat(70_000)}END`;
    const raw = {
      type: 'message',
      message: {
        role: 'toolResult',
        toolName: 'bash',
        content: [
          { type: 'text', text: big },
          { type: 'text', text: 'more' },
        ],
      },
    };
    const p = previewEntry({ type: 'message', raw } as unknown as Entry);
    expect(p.preview).toBe(reference(`[bash] ${big} more`, 160));
  });
});
