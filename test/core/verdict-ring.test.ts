import { describe, expect, it } from 'vitest';
import { JsonLineValidator } from '../../electron/core/engine/json-validate';
import { lineSpans } from '../fixtures/line-spans';
import { CHUNK, chunkSource, ringControl, RingReader, serveRing } from '../../electron/core/engine/verdict-ring';

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

/** A helper run to the file's end in this thread, the way the worker runs it. */
function helperRun(control: SharedArrayBuffer, bytes: Buffer): void {
  const memory = Buffer.alloc(CHUNK + 1);
  const validator = new JsonLineValidator();
  const readAt = (into: Uint8Array, offset: number, length: number, position: number): number =>
    position >= bytes.length ? 0 : bytes.copy(into, offset, position, Math.min(bytes.length, position + length));
  serveRing(
    control,
    chunkSource(memory, 0, readAt, (s, e) => validator.valid(memory, s, e)),
  );
}

describe('the verdict ring', () => {
  const { bytes, lines } = file(700);
  const validator = new JsonLineValidator();
  const expected = lines.map((l) => validator.valid(bytes, l.offset, l.offset + l.length));

  it('vouches for every line inside a chunk exactly as the validator judges it', () => {
    expect(bytes.length).toBeGreaterThan(3 * CHUNK);
    const control = ringControl(bytes.length);
    const reader = new RingReader(control, 0);
    helperRun(control, bytes);
    let known = 0;
    let bad = 0;
    lines.forEach((l, i) => {
      const v = reader.verdict(l.offset, l.length);
      const crosses = Math.floor(l.offset / CHUNK) !== Math.floor((l.offset + l.length) / CHUNK);
      if (crosses) expect(v, `line ${i + 1} crosses a chunk edge`).toBe(-1);
      else {
        expect(v, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
        known++;
        if (!expected[i]) bad++;
      }
    });
    expect(known).toBeGreaterThan(600);
    expect(bad).toBeGreaterThan(20);
  });

  it('leaves the chunk the reader is in, and those before it, to the reader', () => {
    const control = ringControl(bytes.length);
    const reader = new RingReader(control, 0);
    const inSecond = lines.findIndex((l) => l.offset > CHUNK + 100);
    // The reader is in chunk 1 before the helper starts: chunks 0 and 1 are its own.
    expect(reader.verdict(lines[inSecond]!.offset, lines[inSecond]!.length)).toBe(-1);
    helperRun(control, bytes);
    lines.forEach((l, i) => {
      if (i <= inSecond) return;
      const v = reader.verdict(l.offset, l.length);
      const chunk = Math.floor(l.offset / CHUNK);
      const crosses = chunk !== Math.floor((l.offset + l.length) / CHUNK);
      if (chunk <= 1 || crosses) expect(v, `line ${i + 1}`).toBe(-1);
      else expect(v, `line ${i + 1}`).toBe(expected[i] ? 1 : 0);
    });
  });

  it('knows nothing once closed (the helper stops)', () => {
    const control = ringControl(bytes.length);
    const reader = new RingReader(control, 0);
    reader.close();
    helperRun(control, bytes); // returns at once: closed
    expect(lines.every((l) => reader.verdict(l.offset, l.length) === -1)).toBe(true);
  });
});
