import { describe, expect, it } from 'vitest';
import { JsonLineValidator } from '../../electron/core/engine/json-validate';
import { lineSpans } from '../fixtures/line-spans';
import { simdScanIn } from '../../electron/core/rules/json-string-simd';
import {
  CHUNK,
  ChunkReader,
  chunkSource,
  helpWith,
  serveChunks,
  sharedChunks,
  type ChunkSource,
  type SharedChunks,
} from '../../electron/core/engine/shared-chunks';

/** Lines of every kind, some long, some bad, some with CRLF; a few land across chunk edges. */
function file(lines: number): { bytes: Buffer; lines: { offset: number; length: number }[] } {
  const texts: string[] = [];
  for (let i = 0; i < lines; i++) {
    const long = i % 7 === 0 ? 'x'.repeat(50_000 + i) : `line ${i}`;
    let text = JSON.stringify({
      type: 'message',
      id: `e${i}`,
      parentId: null,
      message: { role: 'user', content: long },
    });
    if (i % 41 === 0) text = text.slice(0, -1); // cut short
    if (i % 53 === 0) text = text.replace('"parentId"', '"id"'); // a repeated key the index reads
    if (i % 67 === 0) text += '\r';
    texts.push(text);
  }
  return { bytes: Buffer.from(`${texts.join('\n')}\n`), lines: lineSpans(texts) };
}

const { bytes, lines } = file(700);
const validator = new JsonLineValidator();
const expected = lines.map((l) => validator.valid(bytes, l.offset, l.offset + l.length));

const readAt = (into: Uint8Array, offset: number, length: number, position: number): number =>
  position >= bytes.length ? 0 : bytes.copy(into, offset, position, Math.min(bytes.length, position + length));

/** The helper's source in this thread, reading `bytes` and validating in JavaScript (the worker uses the SIMD module). */
function source(): ChunkSource {
  const v = new JsonLineValidator();
  return chunkSource(0, readAt, (slot, s, e) => v.valid(slot, s, e));
}

/** The worker's way: the SIMD module over the ring's memory validates each chunk where it was read. */
function simdSource(shared: SharedChunks): ChunkSource {
  const simd = simdScanIn(shared.memory, shared.stack)!;
  expect(simd).not.toBeNull();
  return chunkSource(0, readAt, (slot, s, e) => simd.validLine(slot.byteOffset + s, slot.byteOffset + e) === 1);
}

/** The helper's turn: it goes as far as it can from chunk `from` (it waits where a slot is not given back yet). */
function helperRun(shared: SharedChunks, src: ChunkSource, from: number, until = Infinity): number {
  let k = from;
  while (k < until) {
    const step = helpWith(shared, src, k);
    if (typeof step === 'number' || step === 'end') break;
    k++;
  }
  return k;
}

interface Plan {
  /** The helper's source (default: source()). */
  source?: (shared: SharedChunks) => ChunkSource;
  /** The helper's turn before chunk k is taken (default: as far as it can). */
  beforeTake?: (shared: SharedChunks, k: number) => void;
  stallMs?: number;
}

/**
 * A pass the way scanLines makes one: chunk k taken (or read here), the lines whose newline is in
 * it visited with their verdicts, the chunk given back; the bytes taken must be the file's.
 */
function pass(plan: Plan): { verdicts: number[]; chunkOf: number[]; crosses: boolean[]; readHere: number[] } {
  const shared = sharedChunks()!;
  const reader = new ChunkReader(shared, 0, plan.stallMs);
  const src = plan.source?.(shared) ?? source();
  let helperAt = 0;
  const beforeTake = plan.beforeTake ?? ((s: SharedChunks) => (helperAt = helperRun(s, src, helperAt)));
  const verdicts: number[] = [];
  const chunkOf: number[] = [];
  const crosses: boolean[] = [];
  const readHere: number[] = [];
  let line = 0;
  for (let k = 0; k * CHUNK < bytes.length; k++) {
    beforeTake(shared, k);
    const at = k * CHUNK;
    const taken = reader.take(k);
    const { view } = taken;
    let { n } = taken;
    if (n < 0) {
      readHere.push(k);
      n = bytes.copy(view, 1, at, Math.min(bytes.length, at + CHUNK));
    }
    expect(Buffer.from(view.buffer, view.byteOffset + 1, n).equals(bytes.subarray(at, at + n)), `chunk ${k}`).toBe(
      true,
    );
    for (; line < lines.length && lines[line]!.offset + lines[line]!.length < at + n; line++) {
      const l = lines[line]!;
      verdicts.push(reader.verdict(l.offset, l.length));
      chunkOf.push(k);
      crosses.push(l.offset < at);
    }
    reader.release(k);
  }
  reader.close();
  expect(line).toBe(lines.length);
  return { verdicts, chunkOf, crosses, readHere };
}

describe('chunks read and validated by a helper', () => {
  it('hands over every chunk read, with each line inside it judged as the validator judges it', () => {
    expect(bytes.length).toBeGreaterThan(3 * CHUNK);
    const { verdicts, chunkOf, crosses, readHere } = pass({});
    expect(readHere).toEqual([0]); // the chunk after the reader's is left to it: chunk 0 at the start
    let bad = 0;
    verdicts.forEach((got, i) => {
      if (crosses[i] || chunkOf[i] === 0) expect(got, `line ${i + 1} crosses a chunk edge or was read here`).toBe(-1);
      else {
        expect(got, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
        if (!expected[i]) bad++;
      }
    });
    expect(bad).toBeGreaterThan(20);
  });

  it('judges each line where it was read with the SIMD module over the ring, as the JavaScript validator does', () => {
    const { verdicts, chunkOf, crosses, readHere } = pass({ source: simdSource });
    expect(readHere).toEqual([0]);
    verdicts.forEach((got, i) => {
      if (crosses[i] || chunkOf[i] === 0) expect(got, `line ${i + 1}`).toBe(-1);
      else expect(got, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
    });
    expect(verdicts.filter((x) => x === 0).length).toBeGreaterThan(20);
  });

  it('leaves a chunk the helper had not taken to the reader, and the helper skips it then', () => {
    const src = source();
    const skipped: boolean[] = [];
    const { verdicts, chunkOf, crosses, readHere } = pass({
      // The helper takes odd chunks only (a chunk ahead); it comes to an even one after the reader took it.
      beforeTake: (shared, k) => {
        if (k % 2 === 0) {
          expect(helpWith(shared, src, k + 1)).not.toBeTypeOf('number');
          if (k >= 2) skipped.push(helpWith(shared, src, k - 2) === 'next');
        }
      },
    });
    expect(readHere.every((k) => k % 2 === 0)).toBe(true);
    expect(readHere.length).toBeGreaterThan(1);
    expect(skipped.every(Boolean)).toBe(true);
    verdicts.forEach((got, i) => {
      if (crosses[i] || chunkOf[i]! % 2 === 0) expect(got, `line ${i + 1}`).toBe(-1);
      else expect(got, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
    });
  });

  it('leaves the reader the chunk after its own, and waits for a slot given back (three chunks ahead at most)', () => {
    const shared = sharedChunks()!;
    const src = source();
    const reader = new ChunkReader(shared, 0);
    expect(helperRun(shared, src, 0)).toBe(4); // chunk 0 left to the reader, 1–3 read; chunk 4 waits for slot 0
    expect(reader.taken(0)).toBe(false);
    expect(reader.taken(3)).toBe(true);
    expect(typeof helpWith(shared, src, 4)).toBe('number');
    expect(reader.take(0).n).toBe(-1);
    reader.release(0);
    expect(helpWith(shared, src, 4)).not.toBeTypeOf('number');
    expect(reader.taken(4)).toBe(true);
    // A helper behind the reader goes ahead of it: the chunk after the reader's is not taken.
    const behind = sharedChunks()!;
    const r2 = new ChunkReader(behind, 0);
    r2.take(0);
    r2.release(0);
    expect(r2.take(1).n).toBe(-1);
    for (let k = 0; k < 3; k++) expect(helpWith(behind, src, k)).toBe('next'); // 2: the reader's next
    expect(r2.taken(2)).toBe(false);
    expect(helpWith(behind, src, 3)).toBe('next');
    expect(r2.taken(3)).toBe(true);
  });

  it('gives the helper up when it stalls mid-chunk, and reads every chunk alone from there', () => {
    const src = source();
    const stuck: ChunkSource = {
      ...src,
      read: () => {
        throw new Error('stalled');
      },
    };
    const t0 = performance.now();
    const { verdicts, readHere } = pass({
      stallMs: 50,
      beforeTake: (shared, k) => {
        if (k === 1) expect(() => helpWith(shared, stuck, 2)).toThrow('stalled'); // claimed, never done
      },
    });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    expect(readHere).toEqual(Array.from({ length: readHere.length }, (_, i) => i));
    expect(verdicts.every((x) => x === -1)).toBe(true);
  });

  it('ends where the file ends, and at once when closed', () => {
    const shared = sharedChunks()!;
    const src = source();
    const last = Math.floor(bytes.length / CHUNK);
    const reader = new ChunkReader(shared, 0);
    const steps: [number, string][] = [];
    let h = 0;
    let n = -1;
    let ended = false;
    for (let k = 0; k <= last; k++) {
      for (let step: ReturnType<typeof helpWith> = ended ? 0 : helpWith(shared, src, h); typeof step !== 'number';) {
        steps.push([h, step]);
        ended = step === 'end';
        step = ended ? 0 : helpWith(shared, src, ++h);
      }
      n = reader.take(k).n;
      reader.release(k);
    }
    expect(steps.at(-1)).toEqual([last, 'end']); // short: the file ended in it
    expect(n).toBe(bytes.length - last * CHUNK);
    const closed = sharedChunks()!;
    new ChunkReader(closed, 0).close();
    serveChunks(closed, src); // returns at once
  });
});
