import { describe, expect, it } from 'vitest';
import { JsonLineValidator } from '../../electron/core/engine/json-validate';
import { MAX_DEPTH } from '../../electron/core/rules/json-depth';
import { Rng } from '../fixtures/corpus/rng';

/** A seeded stream of floats in [0, 1) (the corpus's mulberry32). */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

const v = new JsonLineValidator();
/** The line at an odd place in a bigger buffer, with bytes after it (as scanLines hands lines). */
function check(text: string): boolean {
  const bytes = Buffer.from(text);
  const buf = Buffer.concat([Buffer.from('xyz'), bytes, Buffer.from('1}]"e.')]);
  const got = v.valid(buf, 3, 3 + bytes.length);
  // valid() runs the WebAssembly scan (json-string.wat); the JavaScript one must agree.
  expect(v.validHere(buf, 3, 3 + bytes.length), `JavaScript scan of ${JSON.stringify(text)}`).toBe(got);
  return got;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const KEYS = ['a', 'bc', 'text', 'x y', 'é'];
const STRINGS = ['', 'plain', 'with "quote"', 'tab\there', 'uni ☃ ü', '\\', '\u0001', 'a/b'];

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 3 || r < 0.4) {
    const s = rand();
    if (s < 0.25) return STRINGS[Math.floor(rand() * STRINGS.length)];
    if (s < 0.5) return [0, -1, 1.5, 1e21, -0.25e-7, 123456789][Math.floor(rand() * 6)];
    return [true, false, null][Math.floor(rand() * 3)];
  }
  if (r < 0.7) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let k = Math.floor(rand() * 4); k > 0; k--) o[KEYS[Math.floor(rand() * KEYS.length)]!] = value(rand, depth + 1);
  return o;
}

const ALPHABET = ' \t\r{}[]:,"\\-+.eE0123456789tfnulrasx\u0000\u00ff';

describe('JsonLineValidator: JSON.parse without parsing', () => {
  it('agrees with JSON.parse on seeded values and their one-byte mutations', () => {
    const rand = rng(2222);
    let valid = 0;
    for (let round = 0; round < 4000; round++) {
      let text = JSON.stringify(value(rand, 0), null, rand() < 0.2 ? 1 : undefined);
      text = text.replace(/\n/g, ' ');
      for (let m = Math.floor(rand() * 3); m > 0; m--) {
        const at = Math.floor(rand() * (text.length + 1));
        const ch = ALPHABET[Math.floor(rand() * ALPHABET.length)]!;
        const op = rand();
        text =
          op < 0.33
            ? text.slice(0, at) + ch + text.slice(at)
            : op < 0.66
              ? text.slice(0, at) + text.slice(at + 1)
              : text.slice(0, at) + ch + text.slice(at + 1);
      }
      const expected = parses(text);
      if (expected) valid++;
      expect(check(text), JSON.stringify(text)).toBe(expected);
    }
    expect(valid).toBeGreaterThan(1000);
  });

  it('refuses a key the index reads when it appears twice, and nesting past MAX_DEPTH', () => {
    expect(check('{"type":"message","id":"a","x":1}')).toBe(true);
    expect(check('{"type":"message","id":"a","id":"b"}')).toBe(false);
    expect(check('{"type":"m","message":{"role":"user","role":"x"}}')).toBe(false);
    expect(check('{"type":"m","message":{"role":"user"},"x":{"role":1,"role":2}}')).toBe(true);
    expect(check('{"a":{"id":1,"id":2}}')).toBe(true);
    for (const key of ['type', 'id', 'parentId', 'timestamp', 'message', 'targetId']) {
      expect(check(`{"${key}":1,"x":2,"${key}":3}`), key).toBe(false);
      expect(check(`{"${key}s":1,"${key}s":3}`), `${key}s`).toBe(true);
      expect(check(`{"${key.slice(1)}":1,"${key.slice(1)}":3}`), key.slice(1)).toBe(true);
      expect(check(`{"${key}":1,"${key.toUpperCase()}":3}`), key.toUpperCase()).toBe(true);
    }
    expect(check('{"message":[{"role":1,"role":2}]}')).toBe(true);
    expect(check('{"message":{"a":{"role":1,"role":2}}}')).toBe(true);
    expect(check('{"message":1,"x":{"role":1,"role":2}}')).toBe(true);
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(check(`{"a":${deep(MAX_DEPTH - 1)}}`)).toBe(true);
    expect(check(`{"a":${deep(MAX_DEPTH)}}`)).toBe(false);
  });
});
