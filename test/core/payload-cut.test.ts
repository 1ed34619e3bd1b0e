/**
 * Heavy payloads of a line, found without parsing it: images with their mime type, long texts by
 * JSON pointer, byte ranges that hold exactly the string's content; the cut line parses to the same
 * entry with those strings emptied or shortened; pages decode the rest.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentPage, cutPayloads, findPayloads, PAYLOAD_CUT_MARKER, type PayloadOptions } from '../../electron/core';

const enc = new TextEncoder();
const dec = new TextDecoder();
const decode = (b: Uint8Array, start: number, end: number): string => dec.decode(b.subarray(start, end));
const SMALL: PayloadOptions = { imageMinBytes: 16, textMinBytes: 32, keepBytes: 8 };

/** The line's bytes placed `shift` bytes into a bigger buffer (quotes before, backslashes after). */
function placed(line: string, shift = 3): [Uint8Array, number, number] {
  const bytes = enc.encode(line);
  const buf = new Uint8Array(bytes.length + shift + 5).fill(0x5c);
  buf.fill(0x22, 0, shift);
  buf.set(bytes, shift);
  return [buf, shift, shift + bytes.length];
}

function scan(value: unknown, opts = SMALL) {
  const line = JSON.stringify(value);
  const [b, start, end] = placed(line);
  const payloads = findPayloads(b, start, end, decode, opts);
  const cut = payloads ? cutPayloads(b, start, end, payloads, decode) : null;
  /** The decoded content of a payload's byte range. */
  const content = (i: number): string =>
    JSON.parse(`"${decode(b, start + payloads![i]!.start, start + payloads![i]!.end)}"`) as string;
  return { line, b, start, end, payloads, cut, content };
}

const B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'.repeat(4);
const LONG = 'line one "quoted" \\ back\u00e9 \u2603 ☃ 😀\n'.repeat(4);

describe('findPayloads', () => {
  it('finds an image block of a user message with its mime type and a pointer to its data', () => {
    const entry = {
      type: 'message',
      id: 'a',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image', data: B64, mimeType: 'image/png' },
        ],
      },
    };
    const { payloads, content, cut } = scan(entry);
    expect(payloads).toEqual([
      {
        id: '/message/content/1/data',
        kind: 'image',
        mimeType: 'image/png',
        start: expect.any(Number),
        end: expect.any(Number),
        sizeBytes: (B64.length * 3) / 4,
        keptBytes: 0,
      },
    ]);
    expect(content(0)).toBe(B64);
    const parsed = JSON.parse(cut!);
    expect(parsed.message.content[1]).toEqual({ type: 'image', data: '', mimeType: 'image/png' });
    expect(parsed.message.content[0]).toEqual({ type: 'text', text: 'hi' });
  });

  it('takes the mime type whether it comes before or after the data', () => {
    const { payloads } = scan({ content: [{ mimeType: 'image/jpeg', type: 'image', data: B64 }] });
    expect(payloads?.[0]).toMatchObject({ kind: 'image', mimeType: 'image/jpeg', id: '/content/0/data' });
  });

  it('cuts long text with escapes (\\" \\\\ \\uXXXX, multi-byte) at a character boundary', () => {
    const entry = {
      type: 'message',
      message: { role: 'toolResult', toolName: 'bash', content: [{ type: 'text', text: LONG }] },
    };
    const { payloads, content, cut } = scan(entry);
    expect(payloads).toHaveLength(1);
    expect(payloads![0]).toMatchObject({ id: '/message/content/0/text', kind: 'text' });
    expect(content(0)).toBe(LONG);
    const text = JSON.parse(cut!).message.content[0].text as string;
    expect(text.endsWith(PAYLOAD_CUT_MARKER)).toBe(true);
    expect(LONG.startsWith(text.slice(0, -PAYLOAD_CUT_MARKER.length))).toBe(true);
  });

  it('finds images inside a tool result and nested arrays, and a long text next to them', () => {
    const entry = {
      type: 'message',
      message: {
        role: 'toolResult',
        content: [
          [{ type: 'image', data: B64, mimeType: 'image/webp' }],
          { type: 'text', text: LONG },
          { type: 'image', data: B64 },
        ],
      },
    };
    const { payloads, content } = scan(entry);
    expect(payloads!.map((p) => [p.id, p.kind, p.mimeType])).toEqual([
      ['/message/content/0/0/data', 'image', 'image/webp'],
      ['/message/content/1/text', 'text', undefined],
      ['/message/content/2/data', 'image', undefined],
    ]);
    expect([content(0), content(1), content(2)]).toEqual([B64, LONG, B64]);
  });

  it('treats a long "data" that is not an image block as text (custom entries), and escapes keys in pointers', () => {
    const entry = { type: 'custom', customType: 'x', data: LONG, 'a/b~c': { 'k"\\': LONG } };
    const { payloads, cut } = scan(entry);
    expect(payloads!.map((p) => p.id)).toEqual(['/data', '/a~1b~0c/k"\\']);
    const parsed = JSON.parse(cut!);
    expect(Object.keys(parsed)).toEqual(Object.keys(entry));
    expect(parsed.customType).toBe('x');
  });

  it('returns a line without payloads as is', () => {
    const entry = {
      type: 'message',
      message: {
        role: 'user',
        content: [
          { type: 'image', data: 'short', mimeType: 'image/png' },
          { type: 'text', text: 'tiny "q" \\' },
        ],
      },
    };
    const { payloads, cut, line } = scan(entry);
    expect(payloads).toEqual([]);
    expect(cut).toBe(line);
  });

  it('answers null for a line with an unterminated or invalid string', () => {
    for (const bad of ['{"a":"abc', '{"a":"\\x"}', '{"a":"\u0001"}']) {
      const [b, s, e] = placed(bad);
      expect(findPayloads(b, s, e, decode, SMALL)).toBeNull();
    }
  });

  it('on any JSON value: the cut parses, and putting the ranges back at their pointers gives the line', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const { payloads, cut, content, line } = scan(
          { v, img: { type: 'image', data: B64 } },
          { imageMinBytes: 16, textMinBytes: 4, keepBytes: 2 },
        );
        const parsed = JSON.parse(cut!) as Record<string, unknown>;
        expect(parsed.img).toEqual({ type: 'image', data: '' });
        payloads!.forEach((p, i) => {
          const tokens = p.id
            .split('/')
            .slice(1)
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
          const last = tokens.pop()!;
          let at: any = parsed;
          for (const t of tokens) at = at[t];
          if (p.kind === 'text') expect((at[last] as string).endsWith(PAYLOAD_CUT_MARKER)).toBe(true);
          at[last] = content(i);
        });
        expect(parsed).toEqual(JSON.parse(line));
      }),
      { numRuns: 300 },
    );
  });
});

describe('contentPage', () => {
  it.each([7, 1])(
    'pages a text through its escapes and characters back to the whole string (pages of %i bytes)',
    (size) => {
      const { b, start, payloads } = scan({ text: LONG });
      const p = payloads![0]!;
      let at = start + p.keptBytes + p.start;
      let text = JSON.parse(`"${decode(b, start + p.start, at)}"`) as string;
      let pages = 0;
      while (at < start + p.end) {
        const page = contentPage(b, at, start + p.end, size, decode);
        expect(page.next).toBeGreaterThan(at);
        text += page.text;
        at = page.next;
        pages++;
      }
      expect(text).toBe(LONG);
      expect(pages).toBeGreaterThan(3);
    },
  );

  it('throws when asked to start inside an escape', () => {
    const [b, s] = placed('"a\\\\xyz"');
    expect(() => contentPage(b, s + 3, s + 7, 4, decode)).toThrow(SyntaxError);
  });
});
