import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickEncoding } from '../../electron/ipc/http-body';
import { asciiJsonBytes } from '../../electron/repo/encoded-json';

function allAscii(bytes: Buffer): boolean {
  return bytes.every((b) => b < 0x80);
}

describe('asciiJsonBytes', () => {
  it('is the same value as JSON.stringify, in all-ASCII bytes', () => {
    const value = {
      preview: 'cut here…',
      tree: 'é🌳',
      lone: '\ud800x',
      key_ü: ['\u2028', 'plain', 1, null],
      latin: 'ÿ\u0080',
    };
    const bytes = asciiJsonBytes(value);
    expect(allAscii(bytes)).toBe(true);
    expect(JSON.parse(bytes.toString('latin1'))).toEqual(value);
    const text = bytes.toString('latin1');
    expect(text).toContain('cut here\\u2026');
    expect(text).toContain('\\ud83c\\udf33');
    expect(text).toContain('\\u00ff\\u0080');
  });

  it('sends an all-ASCII text byte for byte', () => {
    const value = { a: 'plain "quoted" \\ text', n: [1, 2.5, -3e-7], t: true };
    expect(asciiJsonBytes(value).toString('latin1')).toBe(JSON.stringify(value));
  });

  it('gives any JSON value back through all-ASCII bytes, and escapes only what is not ASCII', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.array(fc.string({ unit: 'binary' }), { maxLength: 4 }),
        (value, texts) => {
          const v = { value, texts };
          const bytes = asciiJsonBytes(v);
          expect(allAscii(bytes)).toBe(true);
          expect(JSON.parse(bytes.toString('latin1'))).toEqual(JSON.parse(JSON.stringify(v)));
          // Each non-ASCII code unit becomes exactly one 6-byte escape.
          const json = JSON.stringify(v);
          const wide = [...json].reduce((n, c) => n + (c.length === 2 ? 2 : c.charCodeAt(0) >= 0x80 ? 1 : 0), 0);
          expect(bytes.length).toBe(json.length + 5 * wide);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('pickEncoding', () => {
  it('takes brotli before gzip at equal weight, and the heavier one otherwise', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('BR')).toBe('br');
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('br;q=0.9, gzip;q=0.8')).toBe('br');
    expect(pickEncoding('gzip ; q=1.000, br; q=0.999')).toBe('gzip');
  });

  it('sends as is when nothing it can make is accepted', () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('')).toBeNull();
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('deflate, zstd')).toBeNull();
    expect(pickEncoding('gzip;q=0, br;q=0.000')).toBeNull();
    expect(pickEncoding(['gzip'])).toBeNull();
  });

  it('reads the wildcard, and a malformed weight as 0', () => {
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(pickEncoding('gzip;q=2')).toBeNull();
    expect(pickEncoding('gzip;q=abc, br;q=0.1')).toBe('br');
    expect(pickEncoding('gzip;q=0.1234')).toBeNull();
  });
});
