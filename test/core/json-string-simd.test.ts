import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scalarEnd, SIMD_AFTER, stringEnd } from '../../electron/core/bytes/json-string';
import { simdScan, WINDOW } from '../../electron/core/bytes/json-string-simd';
import { Rng } from '../fixtures/corpus/rng';

const require = createRequire(import.meta.url);
const build = require('../../bin/wasm-build.cjs') as { generated: () => Promise<string>; OUT: string };

/** A seeded stream of floats in [0, 1) (the corpus's mulberry32). */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** The string scan in JavaScript alone (the reference the SIMD scan must equal). */
function reference(b: Buffer, i: number, end: number): number {
  return scalarEnd(b, words(b), i, end, end);
}
function words(b: Buffer): Int32Array {
  return new Int32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
}

const PLAIN = 'abcdefghij klmnop ☃ü 🌳 0123456789 /.,;';
const ESCAPES = ['\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t', '\\u00e9', '\\uABcd'];
const BAD = ['\\x', '\\u12g4', '\\u12', '\u0001', '\u001f', '\n', '\\'];

/** String content of about `n` bytes: plain runs, escapes, sometimes one bad sequence. */
function content(rand: () => number, n: number, bad: boolean): string {
  const parts: string[] = [];
  let len = 0;
  while (len < n) {
    const p =
      rand() < 0.3
        ? ESCAPES[Math.floor(rand() * ESCAPES.length)]!
        : PLAIN.slice(0, 1 + Math.floor(rand() * PLAIN.length));
    parts.push(p);
    len += Buffer.byteLength(p);
  }
  if (bad) parts.splice(Math.floor(rand() * parts.length), 0, BAD[Math.floor(rand() * BAD.length)]!);
  return parts.join('');
}

describe('the SIMD string scan', () => {
  it('is the module its WebAssembly source compiles to', async () => {
    expect(readFileSync(build.OUT, 'utf8')).toBe(await build.generated());
  });

  it('runs here (Node 20 has WebAssembly SIMD)', () => {
    expect(simdScan()).not.toBeNull();
  });

  it('ends every string where the JavaScript scan and JSON.parse do, across windows and alignments', () => {
    const rand = rng(4242);
    const sizes = [SIMD_AFTER - 1, SIMD_AFTER + 1, 200, 5000, WINDOW - 3, WINDOW + 2, 2 * WINDOW + 7];
    let checked = 0;
    for (let round = 0; round < 60; round++) {
      const n = round < sizes.length * 2 ? sizes[round % sizes.length]! : Math.floor(rand() * 300_000);
      const bad = rand() < 0.35;
      const body = content(rand, n, bad);
      // Closed, or cut short (the line ends inside the string, or inside an escape).
      const cut = rand() < 0.2;
      const text = cut ? body.slice(0, body.length - Math.floor(rand() * 3)) : `${body}"`;
      const pad = Math.floor(rand() * 8);
      const b = Buffer.from(`${'x'.repeat(pad)}${text}${cut ? '' : ',"k":1}'}`);
      const end = b.length;
      const got = stringEnd(b, words(b), pad, end);
      expect(got).toBe(reference(b, pad, end));
      if (!cut) {
        const parses = (() => {
          try {
            JSON.parse(`"${body}"`);
            return true;
          } catch {
            return false;
          }
        })();
        expect(got >= 0).toBe(parses);
        if (parses) expect(got).toBe(pad + Buffer.byteLength(body));
      }
      checked++;
    }
    expect(checked).toBe(60);
  });

  it('finishes an escape split across a window edge', () => {
    // A \\u escape starting at every offset around the first window's end.
    for (let at = WINDOW - 8; at <= WINDOW + 2; at++) {
      const body = `${'a'.repeat(at)}\\u00e9tail`;
      const b = Buffer.from(`${body}"`);
      expect(stringEnd(b, words(b), 0, b.length)).toBe(b.length - 1);
      const broken = Buffer.from(`${'a'.repeat(at)}\\u00g9tail"`);
      expect(stringEnd(broken, words(broken), 0, broken.length)).toBe(-1);
    }
  });
});
