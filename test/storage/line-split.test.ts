import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineSplitter, type OversizedLine } from '../../electron/storage/line-split';
import { scanLines } from '../../electron/storage/line-scan';
import { readLineBatches } from '../../electron/storage/read';
import { tempDir } from './tmp';

/** A seeded PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Seen = { line: number; offset: number; length: number; complete: boolean; text?: string; nul?: number[] };

/** The plain answer: every line, those over `max` with their longest NUL run instead of text. */
function expected(bytes: Buffer, max: number): Seen[] {
  const out: Seen[] = [];
  let from = 0;
  let line = 1;
  while (from < bytes.length) {
    const nl = bytes.indexOf(10, from);
    const end = nl === -1 ? bytes.length : nl;
    const s: Seen = { line: line++, offset: from, length: end - from, complete: nl !== -1 };
    if (end - from > max) {
      let best: number[] = [];
      for (let i = from; i < end;) {
        if (bytes[i] !== 0) {
          i++;
          continue;
        }
        let j = i;
        while (j < end && bytes[j] === 0) j++;
        if (j - i > (best[1] ?? 0)) best = [i, j - i];
        i = j;
      }
      if (best.length > 0) s.nul = best;
    } else s.text = bytes.toString('latin1', from, end);
    out.push(s);
    if (nl === -1) break;
    from = nl + 1;
  }
  return out;
}

function fromOversized(o: OversizedLine): Seen {
  const s: Seen = { line: o.line, offset: o.offset, length: o.length, complete: o.complete };
  if (o.nulRun) s.nul = [o.nulRun.offset, o.nulRun.length];
  return s;
}

describe('LineSplitter: sizes before strings', () => {
  it('hands on lines up to the limit and reports longer ones with their NUL runs, at any chunking (seeded)', () => {
    const rand = rng(22);
    for (let round = 0; round < 200; round++) {
      const parts: Buffer[] = [];
      const n = 1 + Math.floor(rand() * 8);
      for (let k = 0; k < n; k++) {
        const len = Math.floor(rand() * 200);
        const b = Buffer.alloc(len);
        for (let i = 0; i < len; i++) b[i] = rand() < 0.3 ? 0 : 0x61 + Math.floor(rand() * 3);
        parts.push(b, Buffer.from(k < n - 1 || rand() < 0.5 ? '\n' : ''));
      }
      const bytes = Buffer.concat(parts);
      const max = 1 + Math.floor(rand() * 120);
      const chunk = 1 + Math.floor(rand() * 64);
      const seen: Seen[] = [];
      const s = new LineSplitter(
        (b, start, end, line, offset, complete) =>
          seen.push({ line, offset, length: end - start, complete, text: b.toString('latin1', start, end) }),
        (o) => seen.push(fromOversized(o)),
        0,
        1,
        max,
      );
      for (let at = 0; at < bytes.length; at += chunk) {
        const c = Buffer.from(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
        s.push(c, c.length, at);
      }
      s.finish();
      expect(seen, `round ${round}`).toEqual(expected(bytes, max));
    }
  });

  it('scanLines and readLineBatches never decode a line over the limit; line numbers go on after it', async () => {
    const dir = await tempDir();
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `{"a":1}\n${'x'.repeat(300)}\0\0\0y\n{"b":2}\n${'z'.repeat(500)}`);
    const visited: number[] = [];
    const over: Seen[] = [];
    const r = await scanLines(path, (_b, _s, _e, line) => visited.push(line), {
      maxLineBytes: 256,
      chunkSize: 64,
      onOversized: (o) => over.push(fromOversized(o)),
    });
    expect(visited).toEqual([1, 3]);
    expect(over).toEqual([
      { line: 2, offset: 8, length: 304, complete: true, nul: [308, 3] },
      { line: 4, offset: 321, length: 500, complete: false },
    ]);
    expect(r).toMatchObject({ endOffset: 321, nextLine: 4, pendingBytes: 500 });
    const lines = [];
    for await (const batch of readLineBatches(path, { maxLineBytes: 256, chunkSize: 64 })) lines.push(...batch);
    expect(lines.map((l) => [l.line, l.text.length, l.oversized?.length ?? null])).toEqual([
      [1, 7, null],
      [2, 0, 304],
      [3, 7, null],
      [4, 0, 500],
    ]);
  });
});
